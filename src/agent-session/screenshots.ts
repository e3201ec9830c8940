import { createHash } from 'node:crypto';
import type { Cache } from '../cache/index.js';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { imageDecodes, loadSharp, readImageSize } from '../core/images.js';
import type { AgentSessionsRepo, ScreenshotRow, SessionRow } from '../store/repos/agent-sessions.js';
import { SCREENSHOT_MAX_BYTES, SCREENSHOT_MAX_PIXELS } from './schemas.js';

/** How much screenshot storage a session, a client address (per UTC day) and the whole instance may use. */
export interface ImageQuotas {
  perSessionBytes: number;
  perClientDayBytes: number;
  budgetBytes: number;
}

export type DecodedScreenshot = Omit<ScreenshotRow, 'created_at'>;

/** Magic bytes of the accepted formats (WebP: RIFF, a length, WEBP); the decoder then has the last word. */
const SIGNATURES: [mime: string, matches: (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/webp', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP'],
];
const DAY_MS = 86_400_000;
const EVICT_BATCH = 100;

const invalid = (message: string) => new ApiError('invalid_image', message, { field: 'screenshot_b64' });

/**
 * base64 (or a `data:image/…;base64,` URL) → bytes, decoded by the image library before anything is
 * stored: its format (PNG, JPEG or WebP) comes from its magic bytes, its size from its header (at
 * most SCREENSHOT_MAX_PIXELS, checked before decoding), and every pixel must decode, so random bytes
 * behind a PNG header are a 400.
 */
export async function decodeScreenshot(text: string): Promise<DecodedScreenshot> {
  const b64 = text.replace(/^data:image\/[a-z0-9.+-]+;base64,/i, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1)
    throw new ApiError('validation_failed', 'screenshot_b64 is not base64', { field: 'screenshot_b64' });
  const decodedBytes = Math.floor((b64.length * 3) / 4) - (b64.match(/=+$/)?.[0].length ?? 0);
  if (decodedBytes > SCREENSHOT_MAX_BYTES) {
    throw new ApiError('payload_too_large', `screenshot is ${decodedBytes} bytes; at most ${SCREENSHOT_MAX_BYTES}`, {
      field: 'screenshot_b64',
      max_bytes: SCREENSHOT_MAX_BYTES,
    });
  }
  const bytes = Buffer.from(b64, 'base64');
  const mime = SIGNATURES.find(([, matches]) => matches(bytes))?.[0];
  if (!mime) {
    throw new ApiError('unsupported_media_type', 'screenshot must be PNG, JPEG or WebP by its magic bytes', {
      field: 'screenshot_b64',
      allowed: SIGNATURES.map(([type]) => type),
    });
  }
  const size = await readImageSize(bytes);
  if (!size) throw invalid(`screenshot has no ${mime} header with its dimensions`);
  checkPixels(size);
  const { default: sharp } = await loadSharp();
  // stats() decodes every pixel: a truncated or corrupt body fails here, not in a watcher's browser.
  const decoded = await imageDecodes.run(() =>
    sharp(bytes, { limitInputPixels: SCREENSHOT_MAX_PIXELS, failOn: 'error' })
      .stats()
      .catch((e: Error) => e),
  );
  if (decoded instanceof Error) throw invalid(`screenshot does not decode as ${mime}: ${decoded.message.slice(0, 160)}`);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), mime, data_b64: bytes.toString('base64'), bytes: bytes.length };
}

function checkPixels({ width, height }: { width: number; height: number }): void {
  if (width * height <= SCREENSHOT_MAX_PIXELS) return;
  throw new ApiError(
    'image_too_many_pixels',
    `screenshot is ${width} × ${height} = ${width * height} pixels; at most ${SCREENSHOT_MAX_PIXELS} are decoded`,
    { field: 'screenshot_b64', limit: 'max_pixels', max: SCREENSHOT_MAX_PIXELS, pixels: width * height, width, height },
  );
}

/**
 * The storage a public route can grow, bounded three ways: per session (413), per client address
 * and UTC day (429 until the next day), and a global budget that first evicts the images of the
 * sessions that ended longest ago and answers 429 only when live sessions hold all of it.
 */
export class ScreenshotQuotas {
  constructor(
    private readonly repo: AgentSessionsRepo,
    private readonly cache: Cache,
    private readonly clock: Clock,
    private readonly quotas: ImageQuotas,
  ) {}

  /** Admits `shot` into `session` for `clientIp`, or throws the quota it would pass. */
  async admit(session: SessionRow, clientIp: string, shot: DecodedScreenshot): Promise<void> {
    const { perSessionBytes, perClientDayBytes } = this.quotas;
    if (Number(session.image_bytes) + shot.bytes > perSessionBytes)
      throw new ApiError(
        'image_quota_exceeded',
        `this session has stored ${session.image_bytes} of its ${perSessionBytes} bytes of screenshots`,
        {
          field: 'screenshot_b64',
          quota: 'per_session',
          limit_bytes: perSessionBytes,
          used_bytes: Number(session.image_bytes),
        },
      );
    const now = this.clock.now();
    const key = `image-bytes:${clientIp}:${Math.floor(now / DAY_MS)}`;
    const used = await this.cache.incr(key, 2 * DAY_MS, shot.bytes);
    try {
      if (used > perClientDayBytes) throw exhausted('per_client_day', perClientDayBytes, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));
      if (!(await this.repo.hasScreenshot(shot.sha256))) await this.makeRoom(shot.bytes);
    } catch (error) {
      await this.cache.incr(key, 2 * DAY_MS, -shot.bytes);
      throw error;
    }
  }

  /** Evicts the images of the longest-ended sessions until `bytes` more fit the budget. */
  private async makeRoom(bytes: number): Promise<void> {
    const { budgetBytes } = this.quotas;
    let over = (await this.repo.storedImageBytes()) + bytes - budgetBytes;
    while (over > 0) {
      const evictable = await this.repo.evictableImages(EVICT_BATCH);
      if (evictable.length === 0) throw exhausted('global', budgetBytes, 60);
      const chosen = [];
      for (const image of evictable) {
        if (over <= 0) break;
        chosen.push(image.sha256);
        over -= image.bytes;
      }
      await this.repo.deleteImages(chosen);
    }
  }
}

const exhausted = (quota: 'per_client_day' | 'global', limitBytes: number, retryAfterS: number) =>
  new ApiError(
    'image_budget_exhausted',
    quota === 'global'
      ? 'the screenshot storage of this instance is full of live sessions; retry later'
      : `this client address has stored its ${limitBytes} bytes of screenshots for today`,
    { field: 'screenshot_b64', quota, limit_bytes: limitBytes, retry_after_s: retryAfterS },
  );
