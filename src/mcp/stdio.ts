#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfigOrExit, type Config } from '../config.js';
import { createDeps } from '../deps.js';
import { buildApp } from '../app.js';
import { checkStartupOrExit } from '../lifecycle/startup-errors.js';
import { joinClusterOrExit } from '../lifecycle/cluster-checks.js';
import { startDemoSimulator } from '../demo/simulator.js';
import { startDemoFakes } from '../demo/fakes.js';
import { httpCaller, injectCaller, type Caller } from './caller.js';
import { createMcpServer } from './server.js';
import type { OpenApiDoc } from './schema.js';
import { parseSelection, type ToolSelection } from './toolsets.js';

/**
 * `svc-mcp`: the MCP server over stdio. With SVC_BASE_URL it talks to that running instance over
 * HTTP; without, it runs the service in-process (same config as `npm start`, SVC_DEMO=1 included).
 * stdout carries only JSON-RPC, so everything else goes to stderr. `--toolsets=<list>` and `--readonly`
 * override SVC_MCP_TOOLSETS and SVC_MCP_READONLY.
 */
async function connectService(config: Config): Promise<{ doc: OpenApiDoc; caller: Caller; close(): Promise<void> }> {
  const baseUrl = config.mcpClient?.baseUrl;
  if (baseUrl) {
    const caller = httpCaller(baseUrl);
    const answer = await caller({ method: 'GET', path: '/openapi.json' });
    if (answer.status !== 200) throw new Error(`${baseUrl}/openapi.json answered ${answer.status}`);
    return { doc: answer.body as OpenApiDoc, caller, close: async () => {} };
  }
  const demo = config.demo ? await startDemoSimulator(config.demoSeed) : undefined;
  const fakes = demo ? await startDemoFakes({ ...config, upstreams: demo.pointAt(config.upstreams) }) : undefined;
  // No background jobs: this process serves one agent's tool calls, not a fleet of watchers.
  const deps = await createDeps({ ...(fakes?.config ?? config), scheduler: false });
  // Its receipts must verify on the other instances, and its session events reach their watchers, like any instance's.
  await joinClusterOrExit(deps);
  const app = await buildApp(deps);
  await app.ready();
  return {
    doc: app.swagger() as unknown as OpenApiDoc,
    caller: injectCaller(app),
    close: async () => {
      await app.close();
      await deps.close();
      await fakes?.close();
      await demo?.close();
    },
  };
}

/** The tool selection from the flags, then the environment; a bad flag ends the process with its message. */
function selectionOf(argv: string[], config: Config): ToolSelection {
  let toolsets = config.mcpClient?.toolsets;
  let readonly = config.mcpClient?.readonly ?? false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--readonly') readonly = true;
    else if (arg.startsWith('--toolsets=')) toolsets = arg.slice('--toolsets='.length);
    else if (arg === '--toolsets') toolsets = argv[++i];
    else throw new Error(`unknown argument ${arg}; svc-mcp takes --toolsets=<list> and --readonly`);
  }
  return parseSelection(toolsets, readonly);
}

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  let selection: ToolSelection;
  try {
    selection = selectionOf(process.argv.slice(2), config);
  } catch (e) {
    process.stderr.write(`svc-mcp: ${(e as Error).message}\n`);
    process.exit(2);
  }
  // Relaying to SVC_BASE_URL needs none of the local resources.
  if (!config.mcpClient?.baseUrl) await checkStartupOrExit(config);
  const service = await connectService(config);
  const { pass, agentKey, apiKey, portfolioToken } = config.mcpClient ?? {};
  const server = createMcpServer({
    doc: service.doc,
    caller: service.caller,
    credentials: { pass, agentKey, apiKey, portfolioToken },
    selection,
  });
  const transport = new StdioServerTransport();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.stdin.once('end', () => void stop());
  await server.connect(transport);
  process.stderr.write(
    `svc-mcp ${service.doc.info.version} ready on stdio (${config.mcpClient?.baseUrl ?? 'in-process'}; toolsets ${selection.toolsets.join(',') || 'none'}${selection.dynamic ? ' + dynamic' : ''}${selection.readonly ? ', read-only' : ''})\n`,
  );
}

await main();
