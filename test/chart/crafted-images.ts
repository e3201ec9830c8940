import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Hand-built files for the image limits: each one trips exactly one check. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => (bytes.reduce((c, b) => CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A valid 1-bit grayscale PNG of the given size whose pixels are all black: rows of zeros deflate to almost nothing. */
export function blackPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, no filter method, no interlace
  const raw = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A PNG signature and IHDR followed by plain text: right magic bytes, no image. */
export function pngHeaderOnText(): Buffer {
  return Buffer.concat([blackPng(4, 4).subarray(0, 33), Buffer.from('this is not an image, just text pretending to be one\n'.repeat(20))]);
}

/** A small real chart-like PNG with an EXIF-style text chunk that the re-encode must drop. */
export async function smallChartPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#fff"/><polyline fill="none" stroke="#000" stroke-width="2" points="0,180 80,140 160,150 240,80 320,40"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const iend = png.length - 12;
  const secret = chunk('tEXt', Buffer.from('Author\0secret-author-name', 'latin1'));
  return Buffer.concat([png.subarray(0, iend), secret, png.subarray(iend)]);
}
