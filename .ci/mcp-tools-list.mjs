// node .ci/mcp-tools-list.mjs <command> [args…]: starts an MCP server over stdio, sends initialize and
// tools/list (newline-delimited JSON-RPC), prints the tool names, exits 1 if none came back in time.
// MCP_EXPECT_TOOLS (comma-separated) names tools that must be listed, MCP_ABSENT_TOOLS tools that must not.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';

const [command, ...args] = process.argv.slice(2);
const toolNames = (variable) => (process.env[variable] ?? '').split(',').filter(Boolean);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const fail = (reason) => {
  process.stderr.write(`FAIL: ${reason}\n`);
  child.kill();
  process.exit(1);
};
const timer = setTimeout(() => fail('no tools/list answer within 120 s'), 120_000);
child.on('exit', (code) => fail(`the server exited (${code}) before answering tools/list`));

createInterface({ input: child.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === 1) {
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  } else if (message.id === 2) {
    const names = (message.result?.tools ?? []).map((tool) => tool.name);
    if (names.length === 0) fail(`tools/list answered ${line}`);
    const listed = new Set(names);
    const missing = toolNames('MCP_EXPECT_TOOLS').filter((name) => !listed.has(name));
    const unwanted = toolNames('MCP_ABSENT_TOOLS').filter((name) => listed.has(name));
    if (missing.length > 0) fail(`tools/list lacks ${missing.join(', ')}: ${names.join(', ')}`);
    if (unwanted.length > 0) fail(`tools/list should not list ${unwanted.join(', ')}: ${names.join(', ')}`);
    process.stdout.write(`tools/list: ${names.join(', ')}\n`);
    clearTimeout(timer);
    child.removeAllListeners('exit');
    child.stdin.end(); // svc-mcp stops when its stdin ends
  }
});
send({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'svc-ci', version: '1' } },
});
