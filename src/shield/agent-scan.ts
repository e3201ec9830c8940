import type { Clock } from '../core/clock.js';
import { unixSeconds } from '../core/clock.js';
import type { Config } from '../config.js';
import { UpstreamError } from '../upstream/errors.js';
import { reportTools } from './audit.js';
import { fetchJson, type JsonPage } from './fetch-json.js';
import { parseManifest, type AuditedTool } from './manifest.js';
import type { ToolFinding } from './schemas.js';

/**
 * The public surface an agent may expose: A2A agent cards (current and older path), an MCP descriptor,
 * an OpenAI plugin manifest, OpenAPI.
 */
export const SURFACES = [
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
  '/.well-known/mcp.json',
  '/.well-known/ai-plugin.json',
  '/openapi.json',
] as const;
const DEADLINE_MS = 8000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Headers that announce a rate limit: IETF RateLimit fields, the common X-RateLimit-* ones, Retry-After. */
const RATE_LIMIT_HEADERS = /^(ratelimit(-limit|-remaining|-reset|-policy)?|x-ratelimit-[a-z-]+|retry-after)$/;

type Json = Record<string, unknown>;
type Fetched = { path: string; page?: JsonPage; error?: UpstreamError };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An A2A agent card's skills as tools: their descriptions and examples are text a model reads. */
function skillsOf(card: Json): AuditedTool[] {
  return (Array.isArray(card.skills) ? card.skills.filter(isObject) : []).map((skill) => ({
    name: [skill.name, skill.id].find((v): v is string => typeof v === 'string') ?? '(unnamed)',
    description: typeof skill.description === 'string' ? skill.description : '',
    texts: (Array.isArray(skill.examples) ? skill.examples : []).filter((e): e is string => typeof e === 'string'),
    fields: [],
    annotations: {},
    definition: skill,
  }));
}

/** The tools a surface exposes, or none when it has no tool list svc can read. */
function toolsOf(path: string, json: Json): AuditedTool[] {
  if (path.includes('agent')) return skillsOf(json);
  try {
    return parseManifest(json).tools;
  } catch {
    return [];
  }
}

const surfaceStatus = ({ path, page, error }: Fetched) => ({
  path,
  status: page
    ? ('found' as const)
    : error?.info.status === 404 || error?.info.status === 410
      ? ('absent' as const)
      : ('unreadable' as const),
  detail: error ? error.message : null,
});

export class AgentScanner {
  constructor(private readonly deps: { config: Config; clock: Clock }) {}

  async scan(url: URL) {
    const deadline = Date.now() + DEADLINE_MS;
    const fetched: Fetched[] = await Promise.all(
      SURFACES.map((path) =>
        fetchJson(new URL(path, url.origin).href, this.deps.config, deadline).then(
          (page) => ({ path, page }),
          (error: unknown) => {
            if (error instanceof UpstreamError) return { path, error };
            throw error;
          },
        ),
      ),
    );
    const found = fetched.flatMap(({ path, page }) => (page ? [{ path, page }] : []));
    const bySurface = found.map((f) => ({ path: f.path, tools: toolsOf(f.path, f.page.json) }));
    const tools = bySurface.flatMap((s) => s.tools);
    const writes = tools
      .filter((t) => t.http && WRITE_METHODS.has(t.http.method) && !t.http.authenticated)
      .map((t) => ({ method: t.http!.method, path: t.http!.path, operation: t.name }));
    const seen = [...new Set(found.flatMap((f) => Object.keys(f.page.headers).filter((h) => RATE_LIMIT_HEADERS.test(h))))].sort();
    return {
      origin: url.origin,
      surfaces: fetched.map(surfaceStatus),
      exposed_tools: bySurface.flatMap((s) => s.tools.map((t) => ({ name: t.name, surface: s.path }))),
      unauthenticated_writes: writes,
      rate_limit_headers: { seen, missing: found.length > 0 && seen.length === 0 },
      findings: surfaceFindings(writes, found.length > 0 && seen.length === 0),
      tools: reportTools(tools).tools,
      as_of: unixSeconds(this.deps.clock),
    };
  }
}

function surfaceFindings(writes: { method: string; path: string }[], rateLimitMissing: boolean): ToolFinding[] {
  const findings: ToolFinding[] = writes.map((w) => ({
    id: 'unauthenticated_write',
    severity: 'high',
    evidence: `${w.method} ${w.path} declares no security requirement`,
  }));
  if (rateLimitMissing)
    findings.push({
      id: 'missing_rate_limit_headers',
      severity: 'medium',
      evidence: 'no RateLimit-*, X-RateLimit-* or Retry-After header on any surface svc read',
    });
  return findings;
}
