#!/usr/bin/env node
// svc-mcp: the svc MCP server over stdio (see README, "Use from an agent"). Runs the TypeScript source through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/mcp/stdio.ts');
