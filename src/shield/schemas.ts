import Type from 'typebox';
import { FreeObject, StringEnum } from '../core/schemas.js';
import { PageInfoSchema } from '../data/answer-pages.js';
import { ALL_EVM_CHAINS } from '../sources/lib/evm-chains.js';

export const TARGET_KINDS = ['contract', 'token', 'address', 'url', 'domain'] as const;
export const ACTIONS = ['approve', 'swap', 'transfer', 'sign', 'visit'] as const;
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export const TOOL_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export type ToolSeverity = (typeof TOOL_SEVERITIES)[number];
export type TargetKind = (typeof TARGET_KINDS)[number];
export type Action = (typeof ACTIONS)[number];

/** A string enum that may be null, as OpenAPI 3.0 spells it (null listed in the enum so JSON Schema validators accept it too). */
const NullableEnum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T | null>({ type: 'string', enum: [...values, null], nullable: true, description });

const Chain = StringEnum(ALL_EVM_CHAINS, { description: 'EVM chain of a contract, token or address; default ethereum' });
const HttpUrl = Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://\\S+$', description: 'an absolute http(s) URL' });

export const VerifyBody = Type.Object(
  {
    target: Type.Object(
      {
        kind: StringEnum(TARGET_KINDS),
        value: Type.String({ minLength: 1, maxLength: 2048, description: '0x address (contract, token, address), URL or domain name' }),
        chain: Type.Optional(Chain),
      },
      { additionalProperties: false },
    ),
    action: Type.Optional(StringEnum(ACTIONS, { description: 'what the agent is about to do with the target' })),
    amount: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,78}$',
        description: 'approve only: the allowance in base units (decimal); 2^255 or more counts as unlimited',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Finding = Type.Object(
  {
    id: Type.String({ description: 'stable finding id, e.g. honeypot, lookalike_domain, unlimited_approval' }),
    severity: StringEnum(SEVERITIES),
    title: Type.String(),
    evidence: FreeObject('what was seen, e.g. the upstream flag or the matched entity'),
    source: Type.String({ description: 'the data type and upstream (token-risk:gopluslabs) or svc:<rule set> for checks svc computes' }),
  },
  { title: 'ShieldFinding' },
);
export type Finding = Type.Static<typeof Finding>;

export const VerifyResponse = Type.Object({
  target: FreeObject('the target as understood (normalized)'),
  action: NullableEnum(ACTIONS, 'the action asked about, null when none was given'),
  verdict: StringEnum(['allow', 'warn', 'block'] as const),
  risk: Type.Integer({ minimum: 0, maximum: 100 }),
  reasons: Type.Array(Type.String(), { description: 'the rows of the verdict table that decided it' }),
  findings: Type.Array(Finding),
  checked: Type.Array(Type.String(), { description: 'checks that ran (passed or produced findings)' }),
  unknown: Type.Array(Type.String(), {
    description: 'checks that could not run (no source, upstream failed, or not answered); never counted as passed',
  }),
  as_of: Type.Integer(),
});

export const ExploitBody = Type.Object(
  { chain: Chain, address: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'contract or token address' }) },
  { additionalProperties: false },
);

export const ExploitResponse = Type.Object({
  chain: Type.String(),
  address: Type.String(),
  probability: Type.Number({ minimum: 0, maximum: 1, description: 'from the factors found' }),
  probability_max: Type.Number({ minimum: 0, maximum: 1, description: 'if every unknown factor were present' }),
  base_rate: Type.Number(),
  factors: Type.Array(Type.Object({ id: Type.String(), weight: Type.Number(), present: Type.Boolean(), source: Type.String() })),
  unknown: Type.Array(Type.String()),
  claim: Type.Object({ agent_id: Type.String(), claim_id: Type.String(), kind: Type.String(), expected_resolution_at: Type.Integer() }),
  as_of: Type.Integer(),
});

const ToolFinding = Type.Object(
  { id: Type.String(), severity: StringEnum(TOOL_SEVERITIES), evidence: Type.String({ maxLength: 400 }) },
  { title: 'ToolFinding' },
);
export type ToolFinding = Type.Static<typeof ToolFinding>;
export const ToolReport = Type.Object({ name: Type.String(), findings: Type.Array(ToolFinding) }, { title: 'ToolReport' });

export const ToolAuditBody = Type.Object(
  {
    manifest: Type.Optional(
      FreeObject('an MCP tools/list result ({tools:[…]}, bare or in a JSON-RPC envelope) or an OpenAPI 3 / Swagger 2 document'),
    ),
    url: Type.Optional(HttpUrl),
  },
  { additionalProperties: false, description: 'exactly one of manifest or url' },
);

const Changes = Type.Object({
  previous_sha256: Type.String(),
  previous_audited_at: Type.Integer({ description: 'Unix s' }),
  added: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
  changed: Type.Array(Type.String()),
});

export const ToolAuditResponse = Type.Object({
  format: StringEnum(['mcp', 'openapi'] as const),
  url: Type.Union([Type.String(), Type.Null()]),
  manifest_sha256: Type.String({ description: 'hex SHA-256 of the RFC 8785 canonical JSON of the manifest' }),
  tools: Type.Array(ToolReport),
  summary: Type.Object({
    tools: Type.Integer(),
    findings: Type.Integer(),
    highest: NullableEnum(TOOL_SEVERITIES, 'the most severe finding, null when there is none'),
  }),
  changes: Type.Union([Changes, Type.Null()], {
    description: 'url audits only: what changed since the last audit of the same URL (null on the first)',
  }),
  as_of: Type.Integer(),
  _page: Type.Optional(PageInfoSchema),
});

export const AgentScanBody = Type.Object({ url: HttpUrl }, { additionalProperties: false });

export const AgentScanResponse = Type.Object({
  origin: Type.String(),
  surfaces: Type.Array(
    Type.Object({
      path: Type.String(),
      status: StringEnum(['found', 'absent', 'unreadable'] as const),
      detail: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  exposed_tools: Type.Array(Type.Object({ name: Type.String(), surface: Type.String() })),
  unauthenticated_writes: Type.Array(Type.Object({ method: Type.String(), path: Type.String(), operation: Type.String() })),
  rate_limit_headers: Type.Object({ seen: Type.Array(Type.String()), missing: Type.Boolean() }),
  findings: Type.Array(ToolFinding),
  tools: Type.Array(ToolReport),
  as_of: Type.Integer(),
  _page: Type.Optional(PageInfoSchema),
});
