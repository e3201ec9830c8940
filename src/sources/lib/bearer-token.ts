import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import { UpstreamError } from '../../upstream/errors.js';
import type { FetchContext } from '../define.js';

/** The OAuth token answer every `token`-keyed host (hosts.ts) sends; `expires_in` is seconds. */
export const Grant = Type.Object({ access_token: Type.String({ minLength: 1 }), expires_in: Type.Number() });
export type Grant = Type.Static<typeof Grant>;

/** Give a token back a minute early so it never expires between check and use. */
const EARLY_MS = 60_000;
const held = new Map<string, { token: string; expiresAtMs: number }>();

/**
 * Runs `use` with a bearer token that `buy` obtains with the `auth` host's credentials
 * (`UPSTREAM_<HOST>_KEY`; the client refuses the purchase as `upstream_key_missing` without them).
 * Tokens are cached per host, base URL and credentials until shortly before they expire; a 401
 * on use (revoked or rotated token) buys a fresh one once.
 */
export async function withBearer<T>(
  ctx: FetchContext,
  auth: HostHttp,
  buy: (credentials: string) => Promise<Grant>,
  use: (token: string) => Promise<T>,
): Promise<T> {
  const setting = ctx.config.upstreams[auth.name];
  const slot = `${auth.name} ${setting.baseUrl} ${setting.key ?? ''}`;
  const token = async (): Promise<string> => {
    const cached = held.get(slot);
    if (cached && cached.expiresAtMs > ctx.clock.now()) return cached.token;
    const grant = await buy(setting.key ?? '');
    held.set(slot, { token: grant.access_token, expiresAtMs: ctx.clock.now() + grant.expires_in * 1000 - EARLY_MS });
    return grant.access_token;
  };
  const first = await token();
  try {
    return await use(first);
  } catch (e) {
    if (!(e instanceof UpstreamError && e.info.status === 401)) throw e;
    held.delete(slot);
    return use(await token());
  }
}

/** `client_id:client_secret` credentials, split at the first ':' (client ids never contain one). */
export function clientCredentials(key: string): { client_id: string; client_secret: string } {
  const at = key.indexOf(':');
  return { client_id: key.slice(0, at), client_secret: key.slice(at + 1) };
}

/** An `application/x-www-form-urlencoded` body. */
export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Buys an app token with the OAuth client-credentials grant at `path` of the auth host (OpenSky, Twitch). */
export const clientCredentialsGrant =
  (auth: HostHttp, path: string, deadline: number) =>
  (credentials: string): Promise<Grant> => {
    const body = form({ grant_type: 'client_credentials', ...clientCredentials(credentials) });
    return auth.json<Grant>(path, Grant, { method: 'POST', deadline, headers: FORM, body });
  };
