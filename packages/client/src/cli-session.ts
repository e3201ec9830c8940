import { readFileSync } from 'node:fs';
import { Argument, Option } from 'commander';
import type { BodyOf } from './client.js';
import { record } from './output.js';
import { CliFailure, clientFor, EXIT, integer, type CliContext } from './cli-shared.js';

type SessionEventKind = BodyOf<'/api/agent-session/event'>['kind'];
const SESSION_EVENT_KINDS = [
  'click',
  'search',
  'fetch',
  'screenshot',
  'navigate',
  'type',
  'scroll',
  'thought',
  'log',
  'error',
] as const satisfies readonly SessionEventKind[];

function readScreenshot(path: string): string {
  try {
    return readFileSync(path).toString('base64');
  } catch (error) {
    throw new CliFailure(`${path}: ${(error as Error).message}`, EXIT.usage);
  }
}

/** Passes and live agent sessions. */
export function registerSessionCommands({ program, globals, show, call, out }: CliContext): void {
  const pass = program.command('pass').description('day and week passes');
  pass
    .command('buy')
    .description('buy a pass with the wallet (day $0.99, week $4.99: raise --max-payment for a week)')
    .addArgument(new Argument('<kind>', 'day or week').choices(['day', 'week']))
    .action(async (kind: 'day' | 'week') => {
      const body = await call(`buying a ${kind} pass`, (c) => c.passes.buy(kind));
      show(
        body,
        (b) => `${record({ ...b, expires_at: new Date(b.expires_at * 1000).toISOString() })}\n\nuse it: export SVC_PASS=${b.pass}`,
      );
    });

  const session = program.command('session').description('live agent sessions');
  session
    .command('start')
    .description('start a session; prints its id, token and watch URL')
    .option('--label <text>', 'watch page title')
    .option('--agent-id <id>', 'who is acting')
    .addOption(new Option('--visibility <v>').choices(['public', 'unlisted']))
    .option('--ttl-minutes <n>', 'minutes without an event before it expires', integer)
    .action(async (o: { label?: string; agentId?: string; visibility?: 'public' | 'unlisted'; ttlMinutes?: number }) => {
      const body = await call('starting a session', (c) =>
        c.sessions.start({ label: o.label, agent_id: o.agentId, visibility: o.visibility, ttl_minutes: o.ttlMinutes }),
      );
      show(body, (b) => record(b));
    });
  const sessionToken = () =>
    new Option('--token <token>', 'the session_token printed by `svc session start`').env('SVC_SESSION_TOKEN').makeOptionMandatory();
  session
    .command('event')
    .description('post an event to a session you started (with its session token)')
    .argument('<session_id>')
    .addArgument(new Argument('<kind>', 'what happened').choices(SESSION_EVENT_KINDS))
    .argument('[text...]', 'what the watchers read')
    .addOption(sessionToken())
    .option('--screenshot <file>', 'PNG, JPEG or WebP image (required for kind screenshot)')
    .action(async (sessionId: string, kind: SessionEventKind, words: string[], o: { token: string; screenshot?: string }) => {
      const text = words.join(' ');
      const body = await call(`posting ${kind}`, (c) =>
        c.sessions.event(
          {
            session_id: sessionId,
            kind,
            ...(text ? { text } : {}),
            ...(o.screenshot ? { screenshot_b64: readScreenshot(o.screenshot) } : {}),
          },
          o.token,
        ),
      );
      show(body, (b) => `posted event ${b.seq}`);
    });
  session
    .command('end')
    .description('end a session you started (with its session token)')
    .argument('<session_id>')
    .addOption(sessionToken())
    .action(async (sessionId: string, o: { token: string }) => {
      const body = await call('ending the session', (c) => c.sessions.end(sessionId, o.token));
      show(body, (b) => record(b));
    });
  session
    .command('watch')
    .description('follow a session live until it ends (one line per event; JSON lines with --json)')
    .argument('<session_id>')
    .action(async (sessionId: string) => {
      for await (const e of clientFor(globals()).sessions.watch(sessionId)) {
        const data = e.data as { text?: string; ts?: number };
        out(
          globals().json
            ? JSON.stringify(e)
            : `${e.id ?? '-'}\t${e.kind}\t${data.ts ? new Date(data.ts).toISOString() : ''}\t${data.text ?? JSON.stringify(e.data)}`,
        );
      }
    });
}
