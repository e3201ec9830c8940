import { sign } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';
import type { SigningKey } from '../../core/signing-keys.js';
import type { CalibProRepo } from '../../store/repos/calib-pro.js';

export const EXPORT_RULES =
  'application/x-ndjson: one JSON object per line, one line per claim, oldest first: {v: 1, agent_id, claim_id, kind, predicted_p, payload, outcome_resolver, created_at (Unix ms), ' +
  'expected_resolution_at (Unix s), status, outcome, outcome_source, evidence, resolved_at (Unix ms), paid_with (x402, pass or null for a free claim), exported_at (Unix s), issuer, kid, sig}. ' +
  'Each line verifies alone: sig is "ed25519-" + base64url of svc\'s Ed25519 signature (the key of /.well-known/svc-receipt-pubkey.json, named by kid) ' +
  'over the RFC 8785 canonical JSON of the line without sig.';

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

/** An agent's whole claim history as signed JSON Lines. */
export async function exportHistory(repo: CalibProRepo, key: SigningKey, issuer: string, agentId: string, nowS: number): Promise<string> {
  const rows = await repo.claimsForExport(agentId);
  return rows
    .map((row) => {
      const line = {
        v: 1,
        agent_id: row.agent_id,
        claim_id: row.claim_id,
        kind: row.kind,
        predicted_p: row.predicted_p,
        payload: parse(row.payload_json),
        outcome_resolver: parse(row.resolver_json),
        created_at: Number(row.created_at),
        expected_resolution_at: Number(row.expected_resolution_at),
        status: row.status,
        outcome: row.outcome,
        outcome_source: row.outcome_source,
        evidence: parse(row.evidence_json),
        resolved_at: row.resolved_at === null ? null : Number(row.resolved_at),
        paid_with: row.paid_with ?? null,
        exported_at: nowS,
        issuer,
        kid: key.kid,
      };
      const sig = `ed25519-${sign(null, Buffer.from(canonicalJson(line)), key.privateKey).toString('base64url')}`;
      return `${JSON.stringify({ ...line, sig })}\n`;
    })
    .join('');
}
