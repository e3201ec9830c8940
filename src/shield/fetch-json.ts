import type { Config } from '../config.js';
import { ApiError } from '../core/errors.js';
import { UpstreamError } from '../upstream/errors.js';
import { checkUrl } from '../upstream/safe-fetch.js';
import { webFetch } from '../upstream/web-fetch.js';

const MAX_BYTES = 2 * 1024 * 1024;
const ACCEPT = ['application/json', 'application/openapi+json', 'application/schema+json', 'text/json', 'text/plain'] as const;

export interface JsonPage {
  json: Record<string, unknown>;
  headers: Record<string, string>;
}

/** A URL an agent named: scheme, credentials, metadata hosts and non-public IP literals are a 400 naming `field`. */
export function publicUrl(raw: string, field: string): URL {
  try {
    return checkUrl(raw);
  } catch (e) {
    throw new ApiError('validation_failed', `${field}: ${e instanceof UpstreamError ? e.message : 'not a valid URL'}`, { field });
  }
}

/** GETs a JSON object through the SSRF-guarded client; a non-JSON or non-object body is upstream_bad_response. */
export async function fetchJson(url: string, config: Config, deadline: number): Promise<JsonPage> {
  const page = await webFetch(url, config, { deadline, maxBytes: MAX_BYTES, maxRedirects: 3, accept: ACCEPT });
  let json: unknown;
  try {
    json = JSON.parse(page.body);
  } catch {
    throw new UpstreamError('upstream_bad_response', `${url} did not answer JSON`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new UpstreamError('upstream_bad_response', `${url} did not answer a JSON object`);
  return { json: json as Record<string, unknown>, headers: page.headers };
}

/**
 * A fetch failure as an API error about what the caller named: a refused address is a 400, and a URL
 * that answers 404, does not resolve, times out or sends no JSON a 422 with the reason. svc itself
 * could serve; a 503 would tell clients and load balancers otherwise.
 */
export function fetchFailure(e: unknown, field: string): never {
  if (!(e instanceof UpstreamError)) throw e;
  if (e.reason === 'blocked_address') throw new ApiError('validation_failed', `${field}: ${e.message}`, { field, reason: e.reason });
  throw new ApiError('url_unreadable', `could not read ${field}: ${e.message}`, {
    field,
    reason: e.reason,
    ...(e.info.status ? { status: e.info.status } : {}),
  });
}
