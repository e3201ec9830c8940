import { ApiError } from './errors.js';
import { importOnce } from './import-once.js';

/**
 * What every decoder of client images shares (session screenshots, chart uploads): the size read
 * from the header before anything is decoded, and a bound on decodes in flight. A few KB of
 * compressed zeros can declare a 33-megapixel bitmap that costs a second and 100 MB to decode;
 * the pixel caps of each route refuse those from the header, and the bound keeps many allowed
 * images at once from multiplying that memory.
 */
export const loadSharp = importOnce(() => import('sharp'));

/** Decodes running at once in this process; the libuv thread pool that runs them has 4 threads. */
export const DECODES_AT_ONCE = 2;
/** Decodes waiting for a turn; past it a request is answered 503 rather than held with its image in memory. */
export const DECODES_WAITING = 32;

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height from the header alone (nothing is decoded); undefined when the header does not say. */
export async function readImageSize(bytes: Buffer): Promise<ImageSize | undefined> {
  const { default: sharp } = await loadSharp();
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  return meta?.width && meta.height ? { width: meta.width, height: meta.height } : undefined;
}

/** A first-come turn-taker: at most `slots` callers run at once, at most `waiting` wait. */
export class DecodeQueue {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly slots = DECODES_AT_ONCE,
    private readonly waiting = DECODES_WAITING,
  ) {}

  /** Runs `decode` in its turn; 503 when too many are waiting already. */
  async run<T>(decode: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) {
      if (this.queue.length >= this.waiting)
        throw new ApiError('service_unavailable', 'too many images are being decoded; retry in a moment', { retry_after_s: 1 });
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else this.running += 1;
    try {
      return await decode();
    } finally {
      // The turn passes straight to the next waiter, so `running` only drops when nobody waits.
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The one queue every image decoder of this process goes through. */
export const imageDecodes = new DecodeQueue();
