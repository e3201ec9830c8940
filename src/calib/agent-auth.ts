import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import type { Clock } from '../core/clock.js';
import type { AgentsRepo, CredentialRow } from '../store/repos/agents.js';
import { isReserved, namespaceOf } from './namespaces.js';

/**
 * Who may write for an agent. The first write for a new agent_id creates it and returns its
 * agent_key once; every later write proves ownership with one of:
 * - `Authorization: Bearer <agent_key>`;
 * - an Ed25519 signature by the agent's registered public JWK: header `X-Svc-Agent-Timestamp` (Unix
 *   seconds, within ±SIGNATURE_WINDOW_S of svc's clock) and `X-Svc-Agent-Signature` (base64url of the
 *   64-byte signature) over SIGNED_STRING_FORMAT. A signature is accepted once.
 * Missing proof → 401 `unauthorized`; a wrong one → 403 `forbidden`; reserved namespaces → 403 always.
 */
export const AGENT_KEY_PREFIX = 'svc-ak_';
export const SIGNATURE_WINDOW_S = 300;
export const TIMESTAMP_HEADER = 'x-svc-agent-timestamp';
export const SIGNATURE_HEADER = 'x-svc-agent-signature';
export const SIGNED_STRING_FORMAT =
  '"svc-agent-v1\\n" + METHOD + "\\n" + path with query exactly as sent + "\\n" + agent_id (for record_outcome the claim\'s agent) + "\\n" + timestamp + "\\n" + lower-case hex SHA-256 of the raw body bytes (of the empty string without a body)';

export const AUTH_DESCRIPTION =
  `Writes for an existing agent need \`Authorization: Bearer <agent_key>\` (missing: 401 unauthorized; wrong: 403 forbidden) or an Ed25519 signature by the public JWK registered with POST /api/v1/calib/public_key: ` +
  `headers ${TIMESTAMP_HEADER} (Unix seconds, within ±${SIGNATURE_WINDOW_S} s) and ${SIGNATURE_HEADER} (base64url signature) over ${SIGNED_STRING_FORMAT}; each signature is accepted once.`;

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
export const hashAgentKey = (key: string): string => sha256Hex(key);

/** A fresh agent key: 192 random bits, base64url. */
export const newAgentKey = (): string => randomId(AGENT_KEY_PREFIX, 24);

export const signedString = (method: string, url: string, agentId: string, timestamp: string, rawBody: Buffer): string =>
  ['svc-agent-v1', method.toUpperCase(), url, agentId, timestamp, sha256Hex(rawBody)].join('\n');

/** Raw bodies of requests that carry a signature, kept by the route-level preParsing hook below. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/**
 * Route-level preParsing hook: keeps the exact body bytes of signed requests (the signature covers
 * them), capped at the route's body limit, and hands the parser the same bytes.
 */
export async function keepRawBodyOfSignedRequests(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: AsyncIterable<Buffer> & NodeJS.ReadableStream,
) {
  if (request.headers[SIGNATURE_HEADER] === undefined) return payload;
  const limit = request.routeOptions.bodyLimit ?? 1_048_576;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += chunk.length;
    if (size > limit) throw new ApiError('payload_too_large', `the request body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  rawBodies.set(request, raw);
  return Readable.from([raw]);
}

export type Grant = { status: 'existing'; credential: CredentialRow } | { status: 'new'; agentKey: string; credential: CredentialRow };

export class AgentAuth {
  constructor(
    private readonly repo: AgentsRepo,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks that `request` may write for `agentId`. With `mayCreate`, an agent that does not exist yet
   * is created by this write: the grant carries the new key and the row to insert in the write's own
   * transaction (so a failed write creates nobody).
   */
  async authorize(request: FastifyRequest, agentId: string, { mayCreate }: { mayCreate: boolean }): Promise<Grant> {
    if (isReserved(agentId)) {
      throw new ApiError('forbidden', `the namespace ${namespaceOf(agentId)}: is reserved for svc's own agents`, {
        field: 'agent_id',
        namespace: namespaceOf(agentId),
      });
    }
    const credential = await this.repo.credential(agentId);
    if (!credential && mayCreate) {
      const agentKey = newAgentKey();
      return {
        status: 'new',
        agentKey,
        credential: {
          agent_id: agentId,
          key_hash: hashAgentKey(agentKey),
          public_jwk: null,
          created_at: this.clock.now(),
          rotated_at: null,
        },
      };
    }
    const proof = request.headers.authorization ?? request.headers[SIGNATURE_HEADER];
    if (proof === undefined) {
      throw new ApiError('unauthorized', `agent ${agentId} exists: send Authorization: Bearer <agent_key> or an agent signature`, {
        agent_id: agentId,
      });
    }
    if (!credential)
      throw new ApiError('forbidden', `agent ${agentId} has no credentials (it never recorded a claim or registered)`, {
        agent_id: agentId,
      });
    if (request.headers.authorization !== undefined) this.checkBearer(request.headers.authorization, credential);
    else await this.checkSignature(request, credential);
    return { status: 'existing', credential };
  }

  private checkBearer(header: string, credential: CredentialRow): void {
    const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header);
    if (!match) throw new ApiError('unauthorized', 'Authorization must be "Bearer <agent_key>"', { agent_id: credential.agent_id });
    const given = Buffer.from(hashAgentKey(match[1]!), 'hex');
    if (!timingSafeEqual(given, Buffer.from(credential.key_hash, 'hex'))) {
      throw new ApiError('forbidden', `this agent_key does not belong to ${credential.agent_id}`, { agent_id: credential.agent_id });
    }
  }

  private async checkSignature(request: FastifyRequest, credential: CredentialRow): Promise<void> {
    const refuse = (reason: string, message: string) => new ApiError('forbidden', message, { agent_id: credential.agent_id, reason });
    if (!credential.public_jwk) throw refuse('no_public_key', `${credential.agent_id} has no registered public key`);
    const timestamp = String(request.headers[TIMESTAMP_HEADER] ?? '');
    const nowS = Math.floor(this.clock.now() / 1000);
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - nowS) > SIGNATURE_WINDOW_S) {
      throw refuse('timestamp_out_of_window', `${TIMESTAMP_HEADER} must be Unix seconds within ${SIGNATURE_WINDOW_S} s of ${nowS}`);
    }
    const signature = Buffer.from(String(request.headers[SIGNATURE_HEADER]), 'base64url');
    const message = signedString(request.method, request.url, credential.agent_id, timestamp, rawBodies.get(request) ?? Buffer.alloc(0));
    const key = createPublicKey({ key: JSON.parse(credential.public_jwk) as { kty: string; crv: string; x: string }, format: 'jwk' });
    if (signature.length !== 64 || !verify(null, Buffer.from(message), key, signature))
      throw refuse('bad_signature', 'the signature does not verify with the registered public key');
    const expiresAt = (Number(timestamp) + SIGNATURE_WINDOW_S + 1) * 1000;
    if (!(await this.repo.useSignature(sha256Hex(signature), credential.agent_id, expiresAt)))
      throw refuse('signature_replayed', 'this signature was already used');
  }

  /** Drops used signatures that left the timestamp window (they would be refused as out of window anyway). */
  purge(): Promise<number> {
    return this.repo.purgeSignatures(this.clock.now());
  }
}
