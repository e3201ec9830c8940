import Type, { type Static } from 'typebox';
import Value from 'typebox/value';

/**
 * `SVC_MODELS`: the language models svc may call, each named once with its vendor, and the roles
 * features ask for. Pure: text + environment → specs (keys resolved from `key_env`) or problems.
 */
export const ROLES = ['planner', 'answerer', 'panel', 'vision-panel'] as const;
export type Role = (typeof ROLES)[number];

/** Vendors and the wire format each speaks; every other vendor here is OpenAI-compatible chat completions. */
export const VENDORS = ['openai', 'anthropic', 'google', 'mistral', 'xai', 'deepseek', 'groq', 'ollama', 'openai-compatible'] as const;
export type Vendor = (typeof VENDORS)[number];
export type Wire = 'openai-chat' | 'anthropic-messages' | 'gemini';

export const wireOf = (vendor: Vendor): Wire =>
  vendor === 'anthropic' ? 'anthropic-messages' : vendor === 'google' ? 'gemini' : 'openai-chat';

/** Each vendor's public API base; `base_url` overrides it (and is required for generic OpenAI-compatible servers). */
const DEFAULT_BASE: Partial<Record<Vendor, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  mistral: 'https://api.mistral.ai/v1',
  xai: 'https://api.x.ai/v1',
  deepseek: 'https://api.deepseek.com/v1',
  groq: 'https://api.groq.com/openai/v1',
  ollama: 'http://127.0.0.1:11434/v1',
};

const Entry = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' }),
    vendor: Type.Union(VENDORS.map((v) => Type.Literal(v))),
    model: Type.String({ minLength: 1, maxLength: 200 }),
    base_url: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
    key_env: Type.Optional(Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$' })),
    price_in_per_mtok: Type.Optional(Type.Number({ minimum: 0 })),
    price_out_per_mtok: Type.Optional(Type.Number({ minimum: 0 })),
    roles: Type.Optional(Type.Array(Type.Union(ROLES.map((r) => Type.Literal(r))), { minItems: 1 })),
    vision: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Entries = Type.Array(Entry, { maxItems: 32 });
type Entry = Static<typeof Entry>;

export interface ModelSpec {
  id: string;
  vendor: Vendor;
  model: string;
  baseUrl: string;
  apiKey?: string;
  /** USD per million tokens; 0 when not configured (local models). */
  priceIn: number;
  priceOut: number;
  /** Roles this model serves; entries without `roles` serve every text role, and `vision-panel` when `vision` is true. */
  roles: Role[];
  /** One of the demo's loopback vendor fakes (demo/fakes.ts), never a model from SVC_MODELS: answers say `demo`. */
  fake?: true;
}

const defaultRoles = (e: Entry): Role[] => (e.vision ? [...ROLES] : ['planner', 'answerer', 'panel']);

function toSpec(e: Entry, env: NodeJS.ProcessEnv, problems: string[], at: string): ModelSpec | undefined {
  const baseUrl = e.base_url ?? DEFAULT_BASE[e.vendor];
  if (!baseUrl) problems.push(`SVC_MODELS${at}.base_url: required for vendor "${String(e.vendor)}"`);
  const apiKey = e.key_env ? env[e.key_env] : undefined;
  if (e.key_env && !apiKey) problems.push(`SVC_MODELS${at}.key_env: ${e.key_env} is not set`);
  if (!baseUrl || (e.key_env && !apiKey)) return undefined;
  return {
    id: e.id,
    vendor: e.vendor,
    model: e.model,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    priceIn: e.price_in_per_mtok ?? 0,
    priceOut: e.price_out_per_mtok ?? 0,
    roles: e.roles ?? defaultRoles(e),
  };
}

/** `SVC_MODELS` JSON text → specs; every problem is named by its entry index and field. */
export function parseModels(text: string, env: NodeJS.ProcessEnv): { models: ModelSpec[]; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { models: [], problems: [`SVC_MODELS: not valid JSON (${(e as Error).message})`] };
  }
  if (!Value.Check(Entries, raw)) {
    return {
      models: [],
      problems: [...Value.Errors(Entries, raw)].map((e) => `SVC_MODELS${e.instancePath.replace(/\//g, '.')}: ${e.message}`),
    };
  }
  const problems: string[] = [];
  const ids = new Set<string>();
  const models = raw.flatMap((entry, i) => {
    if (ids.has(entry.id)) problems.push(`SVC_MODELS.${i}.id: "${entry.id}" is listed twice`);
    ids.add(entry.id);
    return toSpec(entry, env, problems, `.${i}`) ?? [];
  });
  return { models, problems };
}

/**
 * The model `UPSTREAM_LLM_URL` / `UPSTREAM_LLM_KEY` / `SVC_LLM_MODEL` named before `SVC_MODELS`
 * existed: one OpenAI-compatible planner and answerer, used only when `SVC_MODELS` is unset.
 */
export function legacyModel(llm: { baseUrl: string; key?: string }, model: string): ModelSpec[] {
  if (!llm.key) return [];
  return [
    {
      id: 'llm',
      vendor: 'openai',
      model,
      baseUrl: `${llm.baseUrl}/v1`,
      apiKey: llm.key,
      priceIn: 0,
      priceOut: 0,
      roles: ['planner', 'answerer'],
    },
  ];
}
