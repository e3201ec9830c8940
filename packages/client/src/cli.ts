#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { PaymentRequiredError, SpendCapError, SvcHttpError, SvcNetworkError, formatUsd } from './errors.js';
import { withSpinner } from './output.js';
import { CliFailure, clientFor, EXIT, usd, type CliContext, type GlobalOptions } from './cli-shared.js';
import { registerDataCommands } from './cli-data.js';
import { registerLogCommands } from './cli-log.js';
import { registerSessionCommands } from './cli-session.js';
import { registerVerifyCommand } from './cli-verify.js';

function buildCli(out: (text: string) => void = (text) => process.stdout.write(`${text}\n`)): Command {
  const program = new Command('svc')
    .description('Client for svc, the data service for AI agents')
    .addOption(new Option('--base-url <url>', 'service URL').env('SVC_BASE_URL').default('http://localhost:8080'))
    .option('--json', 'machine output: the response body as JSON')
    .option('--wallet-file <path>', 'file holding the wallet private key (else SVC_WALLET_KEY)')
    .option('--max-payment <usd>', 'largest single payment to sign', usd, 1)
    .option('--max-session <usd>', 'largest total to sign in this run', usd, 10)
    .showHelpAfterError()
    .exitOverride() // before the subcommands, which inherit it: usage errors become exit code 2 in main()
    .addHelpText(
      'after',
      '\nExit codes: 0 ok · 1 receipt invalid, a log fork or a conformance miss · 2 usage · 3 service error · 4 payment not made · 5 service unreachable',
    );

  const globals = () => program.opts<GlobalOptions>();
  const context: CliContext = {
    program,
    globals,
    out,
    show: (body, human) => out(globals().json ? JSON.stringify(body) : human(body)),
    call: (label, task) => withSpinner(label, () => task(clientFor(globals()))),
  };
  registerDataCommands(context);
  registerVerifyCommand(context);
  registerSessionCommands(context);
  registerLogCommands(context);
  return program;
}

/** Maps failures to exit codes and one line on stderr. */
function failure(error: unknown): { code: number; message: string } {
  if (error instanceof CliFailure) return { code: error.code, message: error.message };
  if (error instanceof SpendCapError) return { code: EXIT.payment, message: error.message };
  if (error instanceof PaymentRequiredError) {
    const price = error.amount === undefined ? '' : ` (${formatUsd(error.amount)})`;
    return { code: EXIT.payment, message: `${error.message}${price}; set SVC_WALLET_KEY or --wallet-file, or SVC_PASS` };
  }
  if (error instanceof SvcHttpError) return { code: EXIT.http, message: error.message };
  if (error instanceof SvcNetworkError) return { code: EXIT.network, message: error.message };
  return { code: EXIT.invalid, message: error instanceof Error ? error.message : String(error) };
}

async function main(argv = process.argv): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const { code, message } = failure(error);
    process.stderr.write(`svc: ${message}\n`);
    process.exitCode = code;
  }
}

await main();
