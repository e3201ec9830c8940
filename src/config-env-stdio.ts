import Type from 'typebox';
import { TOOLSETS_PATTERN } from './mcp/toolset-names.js';

/** A 0/1 switch, off by default. */
export const Flag = (description: string) => Type.Union([Type.Literal('0'), Type.Literal('1')], { default: '0', description });

/** The variables only the stdio MCP server (`svc-mcp`) reads: part of EnvSchema (config-env.ts). */
export const MCP_STDIO_ENV = {
  SVC_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description: 'svc-mcp (stdio): a running svc to talk to over HTTP; unset = run the service in-process',
    }),
  ),
  SVC_MCP_PASS: Type.Optional(
    Type.String({ pattern: '^svc-pass_', description: 'svc-mcp (stdio): day/week pass used for paid tool calls' }),
  ),
  SVC_MCP_AGENT_KEY: Type.Optional(
    Type.String({ pattern: '^svc-ak_', description: 'svc-mcp (stdio): agent key used for agent-authenticated tools (record_claim)' }),
  ),
  SVC_MCP_API_KEY: Type.Optional(
    Type.String({ minLength: 8, description: 'svc-mcp (stdio): API key sent as X-API-Key (higher rate-limit tier)' }),
  ),
  SVC_MCP_PORTFOLIO_TOKEN: Type.Optional(
    Type.String({ minLength: 8, description: 'svc-mcp (stdio): portfolio token used by the portfolio tools' }),
  ),
  SVC_MCP_TOOLSETS: Type.Optional(
    Type.String({
      pattern: TOOLSETS_PATTERN,
      description:
        'svc-mcp (stdio): toolsets listed, comma-separated (data, calibration, sessions, safety, arena, chart, portfolio, all, default, dynamic); default data,safety; --toolsets= overrides',
    }),
  ),
  SVC_MCP_READONLY: Flag('svc-mcp (stdio): 1 = leave out tools that record something (--readonly does the same)'),
};
