import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { unixSeconds } from '../core/clock.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { ShieldRepo } from '../store/repos/shield.js';
import { parseManifest, type AuditedTool } from './manifest.js';
import type { ToolFinding, ToolSeverity } from './schemas.js';
import { auditTool } from './tool-rules.js';

const RANK: Record<ToolSeverity, number> = { low: 0, medium: 1, high: 2, critical: 3 };
export const sha256Hex = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');

export interface ToolReport {
  name: string;
  findings: ToolFinding[];
}

/** The tools' reports and a summary with the most severe finding. */
export function reportTools(
  tools: AuditedTool[],
  extra: Map<string, ToolFinding[]> = new Map(),
): { tools: ToolReport[]; summary: { tools: number; findings: number; highest: ToolSeverity | null } } {
  const reports = tools.map((tool) => ({
    name: tool.name,
    findings: [...auditTool(tool), ...(extra.get(tool.name) ?? [])].sort((a, b) => RANK[b.severity] - RANK[a.severity]),
  }));
  const all = reports.flatMap((r) => r.findings);
  const highest = all.reduce<ToolSeverity | null>((top, f) => (top === null || RANK[f.severity] > RANK[top] ? f.severity : top), null);
  return { tools: reports, summary: { tools: reports.length, findings: all.length, highest } };
}

interface Changes {
  previous_sha256: string;
  previous_audited_at: number;
  added: string[];
  removed: string[];
  changed: string[];
}

/** Tools added, removed and redefined since the previous audit of the same URL. */
function diff(previous: Record<string, string>, current: Record<string, string>): Omit<Changes, 'previous_sha256' | 'previous_audited_at'> {
  const names = (o: Record<string, string>) => Object.keys(o);
  return {
    added: names(current).filter((n) => !(n in previous)),
    removed: names(previous).filter((n) => !(n in current)),
    changed: names(current).filter((n) => n in previous && previous[n] !== current[n]),
  };
}

export class ToolAuditor {
  constructor(private readonly deps: { repo: ShieldRepo; clock: Clock }) {}

  /** Audits a manifest; with a URL, compares against that URL's last audit and records this one. */
  async audit(manifest: Record<string, unknown>, url: string | null) {
    const { format, tools } = parseManifest(manifest);
    const manifestSha = sha256Hex(manifest);
    const hashes = Object.fromEntries(tools.map((t) => [t.name, sha256Hex(t.definition)]));
    const changes = url ? await this.compare(url, manifestSha, hashes) : null;
    const extra = new Map((changes?.changed ?? []).map((name) => [name, [changedFinding(name, changes!)]]));
    return {
      format: format,
      url,
      manifest_sha256: manifestSha,
      ...reportTools(tools, extra),
      changes,
      as_of: unixSeconds(this.deps.clock),
    };
  }

  private async compare(url: string, manifestSha: string, hashes: Record<string, string>): Promise<Changes | null> {
    const previous = await this.deps.repo.latest(url);
    await this.deps.repo.record({
      url,
      audited_at: this.deps.clock.now(),
      manifest_sha256: manifestSha,
      tool_hashes_json: JSON.stringify(hashes),
    });
    if (!previous) return null;
    const changes = diff(JSON.parse(previous.tool_hashes_json) as Record<string, string>, hashes);
    return { previous_sha256: previous.manifest_sha256, previous_audited_at: Math.floor(previous.audited_at / 1000), ...changes };
  }
}

/** A tool whose definition changed after an earlier audit: what was approved is no longer what runs (a rug pull). */
const changedFinding = (name: string, changes: Changes): ToolFinding => ({
  id: 'definition_changed',
  severity: 'high',
  evidence: `"${name}" changed since the audit at ${new Date(changes.previous_audited_at * 1000).toISOString()} (manifest ${changes.previous_sha256.slice(0, 12)}…)`,
});
