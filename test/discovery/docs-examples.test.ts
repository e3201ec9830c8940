import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';

/**
 * Every ```sh block of README.md and docs/*.md runs with bash against one demo server started here as `npm run demo`
 * starts it (the demo world, its last hour recorded, the arena and olympics backfilled), with `localhost:8080`
 * rewritten to the server's port. A block fails when any command in it fails: bash runs it with `-e -o pipefail`,
 * and `curl` fails on an HTTP error status (`--fail-with-body`) unless the example prints the status itself
 * (`-i`, `-w`, `-D`); a stream cut by the example's own `--max-time` is a normal end.
 * DOCS_EXAMPLES_URL=http://localhost:8080 runs the blocks against a server you started instead.
 */
const ROOT = new URL('../../', import.meta.url);
const DOCS = new URL('docs/', ROOT);
const PAGES = [
  'README.md',
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Block {
  page: string;
  line: number;
  code: string;
}

export function shBlocks(page: string, text: string): Block[] {
  const blocks: Block[] = [];
  for (const match of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    blocks.push({ page, line: text.slice(0, match.index).split('\n').length, code: match[1]! });
  }
  return blocks;
}

const TEXTS = PAGES.map((page) => ({ page, text: readFileSync(new URL(page, ROOT), 'utf8') }));
const BLOCKS = TEXTS.flatMap(({ page, text }) => shBlocks(page, text));

const PRELUDE = `set -eo pipefail
curl() {
  local shows_status=0 stream=0 arg
  for arg in "$@"; do
    case "$arg" in
      -i|--include|-w|--write-out|-D|--dump-header) shows_status=1 ;;
      -N|--no-buffer) stream=1 ;;
      -[a-zA-Z]*) [[ "$arg" == *i* || "$arg" == *w* || "$arg" == *D* ]] && shows_status=1; [[ "$arg" == *N* ]] && stream=1 ;;
    esac
  done
  local code=0
  if [ "$shows_status" = 1 ]; then command curl "$@" || code=$?; else command curl --fail-with-body "$@" || code=$?; fi
  if [ "$stream" = 1 ] && [ "$code" = 28 ]; then code=0; fi
  return "$code"
}
`;

/** Runs asynchronously: the demo server answering the block lives in this process's event loop. */
function run(block: Block, origin: string): Promise<{ code: number; output: string }> {
  const script = PRELUDE + block.code.replaceAll('http://localhost:8080', origin).replaceAll('localhost:8080', origin);
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}`.trim() });
    });
  });
}

describe('every shell example in README.md and docs/ runs against the demo', () => {
  let server: DemoServer | undefined;
  let origin = process.env.DOCS_EXAMPLES_URL ?? '';
  beforeAll(async () => {
    if (origin) return;
    server = await startDemoServer();
    origin = server.url;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('finds the examples, and jq to read their answers; shell is fenced as sh (run) or text/console (not run)', () => {
    expect(BLOCKS.length).toBeGreaterThan(10);
    const unrun = TEXTS.flatMap(({ page, text }) => [...text.matchAll(/^```(bash|shell|zsh)$/gm)].map((m) => `${page}: ${m[0]}`));
    expect(unrun).toEqual([]);
    expect(spawnSync('jq', ['--version']).status, 'the examples read JSON with jq: install it').toBe(0);
  });

  it.each(BLOCKS.map((b) => [`${b.page}:${b.line}`, b] as const))('%s', { timeout: 90_000 }, async (_where, block) => {
    const { code, output } = await run(block, origin);
    expect(code, `\n--- block ---\n${block.code}--- output ---\n${output.slice(-4000)}`).toBe(0);
  });
});
