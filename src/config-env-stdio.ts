import Type from 'typebox';
import { TOOLSETS_PATTERN } from './config-toolsets.js';

/** A yes/no switch (1/0, true/false, yes/no, on/off in any case: core/booleans.ts), off unless `byDefault` says otherwise. */
export const Flag = (description: string, byDefault: '0' | '1' = '0') =>
  Type.String({ default: byDefault, description, boolean: true as const });

/** The variables only the stdio MCP server (`svc-mcp`) reads: part of EnvSchema (config-env.ts). */
export const MCP_STDIO_ENV = {
  SVC_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description: 'svc-mcp (stdio): a running svc to talk to over HTTP; unset = run the service in-process',
    }),
  ),
  SVC_MCP_PASS: Type.Optional(
    Type.String({
      pattern: '^svc-pass_',
      expected: 'a pass (svc-pass_…)',
      description: 'svc-mcp (stdio): day/week pass used for paid tool calls',
    }),
  ),
  SVC_MCP_AGENT_KEY: Type.Optional(
    Type.String({
      pattern: '^svc-ak_',
      expected: 'an agent key (svc-ak_…)',
      description: 'svc-mcp (stdio): agent key used for agent-authenticated tools (record_claim)',
    }),
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
      expected: 'a comma-separated list of toolsets',
      description:
        'svc-mcp (stdio): toolsets listed, comma-separated (data, calibration, sessions, safety, arena, chart, portfolio, all, default, dynamic); default data,safety; --toolsets= overrides',
    }),
  ),
  SVC_MCP_ALLOWED_HOSTS: Type.Optional(
    Type.String({
      pattern: '^(\\*|[A-Za-z0-9.:\\[\\]-]+(,[A-Za-z0-9.:\\[\\]-]+)*)$',
      expected: 'a comma-separated list of host names without ports (IPv6 in brackets), or * for any',
      description:
        '/mcp answers only requests whose Host names one of these (DNS-rebinding guard; 403 otherwise); default localhost, 127.0.0.1, [::1] and the host of SVC_PUBLIC_URL when HOST is a loopback address or SVC_PUBLIC_URL is set, else any',
    }),
  ),
  SVC_MCP_ALLOWED_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^(\\*|https?://[^\\s,/]+(,https?://[^\\s,/]+)*)$',
      expected: 'a comma-separated list of origins such as https://app.example.org, or * for any',
      description:
        '/mcp answers browser requests (with an Origin header) only from these origins (403 otherwise); default any origin on an allowed host',
    }),
  ),
  SVC_MCP_READONLY: Flag('svc-mcp (stdio): 1 = leave out tools that record something (--readonly does the same)'),
};
