import { createHash } from 'node:crypto';
import { ApiError } from '../core/errors.js';
import { imageDecodes, loadSharp, readImageSize } from '../core/images.js';
import { importOnce } from '../core/import-once.js';

/**
 * Every image is checked here before a model sees it: size, type by magic bytes (never the declared
 * one), dimensions read from the header, a pixel cap the decoder itself enforces (a few KB of
 * compressed zeros can declare a 4096 × 4096 bitmap: a decompression bomb), then a re-encode to PNG
 * that drops every metadata chunk (EXIF, XMP, ICC, text) after applying the EXIF orientation.
 */
export const IMAGE_LIMITS = { maxBytes: 5 * 1024 * 1024, maxWidth: 4096, maxHeight: 4096, maxPixels: 12_000_000 } as const;
const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

const loadFileType = importOnce(() => import('file-type'));

export const IMAGE_RULES =
  `At most ${IMAGE_LIMITS.maxBytes} bytes (413 image_too_large); PNG, JPEG or WebP by magic bytes, whatever the declared type (415 unsupported_image_type); ` +
  `at most ${IMAGE_LIMITS.maxWidth} × ${IMAGE_LIMITS.maxHeight} pixels (422 image_dimensions_too_large) and ${IMAGE_LIMITS.maxPixels} pixels in all, ` +
  'the decompression-bomb guard (422 image_too_many_pixels); an image that does not decode is 400 invalid_image. Each error names the limit in details.limit. ' +
  'While too many images wait to be decoded, 503 service_unavailable with Retry-After. ' +
  'The image is re-encoded to PNG with all metadata dropped before any model sees it.';

export interface CleanImage {
  /** The re-encoded PNG the models get. */
  png: Buffer;
  /** SHA-256 (hex) of the bytes as uploaded. */
  sha256: string;
  format: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
  bytes: number;
}

export async function cleanImage(upload: Buffer): Promise<CleanImage> {
  if (upload.length > IMAGE_LIMITS.maxBytes) throw tooLarge(upload.length);
  const format = await detectFormat(upload);
  const { width, height } = await header(upload);
  if (width > IMAGE_LIMITS.maxWidth || height > IMAGE_LIMITS.maxHeight) {
    throw new ApiError(
      'image_dimensions_too_large',
      `the image is ${width} × ${height} pixels; at most ${IMAGE_LIMITS.maxWidth} × ${IMAGE_LIMITS.maxHeight} are accepted`,
      {
        limit: 'max_dimensions',
        max_width: IMAGE_LIMITS.maxWidth,
        max_height: IMAGE_LIMITS.maxHeight,
        width,
        height,
      },
    );
  }
  if (width * height > IMAGE_LIMITS.maxPixels) {
    throw new ApiError('image_too_many_pixels', `the image has ${width * height} pixels; at most ${IMAGE_LIMITS.maxPixels} are decoded`, {
      limit: 'max_pixels',
      max: IMAGE_LIMITS.maxPixels,
      pixels: width * height,
    });
  }
  const { default: sharp } = await loadSharp();
  const png = await imageDecodes.run(() =>
    sharp(upload, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error' })
      .rotate()
      .png()
      .toBuffer()
      .catch((e: Error) => {
        throw invalid(e);
      }),
  );
  return { png, sha256: createHash('sha256').update(upload).digest('hex'), format, width, height, bytes: upload.length };
}

export const tooLarge = (bytes?: number) =>
  new ApiError('image_too_large', `the image is larger than ${IMAGE_LIMITS.maxBytes} bytes`, {
    limit: 'max_bytes',
    max: IMAGE_LIMITS.maxBytes,
    ...(bytes ? { bytes } : {}),
  });

async function detectFormat(upload: Buffer): Promise<CleanImage['format']> {
  const { fileTypeFromBuffer } = await loadFileType();
  const detected = await fileTypeFromBuffer(upload);
  const accepted = (ACCEPTED_TYPES as readonly string[]).includes(detected?.mime ?? '');
  if (!detected || !accepted) {
    throw new ApiError(
      'unsupported_image_type',
      `the file's magic bytes say ${detected?.mime ?? 'no known type'}; only PNG, JPEG and WebP are accepted`,
      {
        limit: 'image_type',
        accepted: [...ACCEPTED_TYPES],
        detected: detected?.mime ?? null,
      },
    );
  }
  return detected.ext === 'jpg' ? 'jpeg' : (detected.ext as CleanImage['format']);
}

/** Width and height from the header alone: nothing is decoded yet. */
async function header(upload: Buffer): Promise<{ width: number; height: number }> {
  const size = await readImageSize(upload);
  if (!size) throw invalid(new Error('no dimensions in the header'));
  return size;
}

const invalid = (e: Error) =>
  new ApiError('invalid_image', `the image does not decode: ${e.message.slice(0, 200)}`, { limit: 'decodable' });
