/**
 * Draws examples/sample-chart.png, the sample input of the chart analyzer:
 *   npx tsx examples/sample-chart.ts
 * A synthetic candlestick chart from a seeded random walk with an upward drift, drawn for the demo.
 * It is not market data and shows no real asset.
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

const WIDTH = 960;
const HEIGHT = 540;
const PAD = { left: 20, right: 70, top: 40, bottom: 30 };
const COUNT = 80;

function walk(seed: number): { o: number; h: number; l: number; c: number }[] {
  let s = seed;
  const rand = () => (s = (s * 16807) % 2147483647) / 2147483647;
  let price = 100;
  return Array.from({ length: COUNT }, () => {
    const o = price;
    const c = o * (1 + (rand() - 0.46) * 0.03);
    price = c;
    return { o, c, h: Math.max(o, c) * (1 + rand() * 0.01), l: Math.min(o, c) * (1 - rand() * 0.01) };
  });
}

function svg(candles: ReturnType<typeof walk>): string {
  const lo = Math.min(...candles.map((k) => k.l));
  const hi = Math.max(...candles.map((k) => k.h));
  const y = (p: number) => PAD.top + ((hi - p) / (hi - lo)) * (HEIGHT - PAD.top - PAD.bottom);
  const step = (WIDTH - PAD.left - PAD.right) / COUNT;
  const bodies = candles.map((k, i) => {
    const x = PAD.left + i * step + step / 2;
    const color = k.c >= k.o ? '#1a9e5a' : '#d64541';
    const top = y(Math.max(k.o, k.c));
    const height = Math.max(1, Math.abs(y(k.o) - y(k.c)));
    return `<line x1="${x}" x2="${x}" y1="${y(k.h)}" y2="${y(k.l)}" stroke="${color}"/><rect x="${x - step * 0.35}" y="${top}" width="${step * 0.7}" height="${height}" fill="${color}"/>`;
  });
  const ticks = Array.from({ length: 6 }, (_, i) => lo + ((hi - lo) * i) / 5).map(
    (p) =>
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(p)}" y2="${y(p)}" stroke="#e5e5e5"/><text x="${WIDTH - PAD.right + 6}" y="${y(p) + 4}" font-size="12" font-family="sans-serif">${p.toFixed(2)}</text>`,
  );
  const title =
    '<text x="20" y="24" font-size="15" font-family="sans-serif">SAMPLE / USD · 1h · synthetic demo chart, not market data</text>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="#fff"/>${title}${ticks.join('')}${bodies.join('')}</svg>`;
}

const png = await sharp(Buffer.from(svg(walk(7))))
  .png({ compressionLevel: 9 })
  .toBuffer();
writeFileSync(new URL('./sample-chart.png', import.meta.url), png);
console.log(`examples/sample-chart.png: ${png.length} bytes`);
