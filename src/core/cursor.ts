import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.js';

/**
 * Tamper-evident opaque cursors: `<prefix>` + base64url(JSON payload) + `.` + HMAC-SHA256 tag.
 * A forged, altered or foreign cursor (another prefix, another server's secret) is a 400.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(prefix: string, payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${prefix}${body}.${this.tag(prefix, body)}`;
  }

  decode<T>(prefix: string, cursor: string): T {
    const invalid = new ApiError('invalid_cursor', `not a cursor issued by this service (expected ${prefix}…)`, { field: 'cursor' });
    if (!cursor.startsWith(prefix)) throw invalid;
    const [body, tag, ...rest] = cursor.slice(prefix.length).split('.');
    if (!body || !tag || rest.length) throw invalid;
    const expected = Buffer.from(this.tag(prefix, body));
    const given = Buffer.from(tag);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch {
      throw invalid;
    }
  }

  private tag(prefix: string, body: string): string {
    return createHmac('sha256', this.secret).update(prefix).update(body).digest('base64url');
  }
}
