import type { RequestDescription } from './meta.js';
import type { ReceiptVerdict } from './receipt.js';
import { CliFailure, EXIT, readJsonFile, type CliContext } from './cli-shared.js';
import { connectLog, logKeyOptions, proofFor, type LogKeyOptions } from './cli-log-shared.js';

/** "GET /api/data/preview?type=…&q=…" as the service hashes it: the path as written, the query last value wins. */
function describeRequest(line: string, bodyFile: string | undefined): RequestDescription {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(line);
  if (!match) throw new CliFailure(`--request: expected "METHOD /path?query", got ${JSON.stringify(line)}`, EXIT.usage);
  const [path = '', search = ''] = match[2]!.split(/\?(.*)/s);
  return {
    method: match[1]!.toUpperCase(),
    path,
    query: Object.fromEntries(new URLSearchParams(search)),
    body: bodyFile ? readJsonFile(bodyFile) : null,
  };
}

function describeVerdict(v: ReceiptVerdict): string {
  if (!v.valid) return `INVALID: ${v.reason}${v.message ? ` (${v.message})` : ''}`;
  const logged = v.log ? `, entry ${v.log.index} of ${v.log.origin} (checkpoint size ${v.log.tree_size})` : '';
  return `valid (${v.checked}), key ${v.kid}, issued ${new Date(v.issued_at * 1000).toISOString()}${logged}`;
}

interface VerifyFlags extends LogKeyOptions {
  request?: string;
  requestBody?: string;
  log?: boolean;
  proof?: string;
}

export function registerVerifyCommand({ program, globals, show, call }: CliContext): void {
  program
    .command('verify')
    .description('check a saved response body (with _receipt) or a bare receipt offline; exit 0 valid, 1 invalid')
    .argument('<file>', 'JSON file')
    .option('--request <"METHOD /path?query">', 'the request the answer is for: its request_hash is checked too')
    .option('--request-body <file>', 'JSON body of that request (POST)')
    .option('--log', "also check the receipt is in svc's transparency log at its log.index")
    .option('--proof <file>', 'the .tlog-proof to check it with (default: <file without .json>.tlog-proof if present, else fetched)')
    .addOption(logKeyOptions.logKey())
    .addOption(logKeyOptions.witnessKey())
    .action(async (file: string, o: VerifyFlags) => {
      const saved = readJsonFile(file);
      const request = o.request ? describeRequest(o.request, o.requestBody) : undefined;
      const inclusion = o.log
        ? await call('fetching the log proof', async () => {
            const log = await connectLog(globals().baseUrl, o);
            return { proof: await proofFor(file, saved, log, o.proof), logKeys: log.verifiers };
          })
        : undefined;
      const verdict = await call('fetching the receipt key', (c) => c.verifyReceipt(saved, { request, inclusion }));
      show(verdict, describeVerdict);
      if (!verdict.valid) process.exitCode = EXIT.invalid;
    });
}
