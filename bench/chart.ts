/** A dependency-free SVG line chart: requests/s against connections for the service and the bare route. */
export interface CurvePoint {
  connections: number;
  preview_rps: number;
  bare_rps: number;
}

const W = 640;
const H = 360;
const PAD = { left: 70, right: 150, top: 40, bottom: 50 };
const SERIES = [
  { key: 'preview_rps', label: 'cached preview (svc)', color: '#1f77b4' },
  { key: 'bare_rps', label: 'bare Fastify route', color: '#ff7f0e' },
] as const;

export function throughputChart(points: CurvePoint[], subtitle: string): string {
  const maxY = Math.max(1, ...points.flatMap((p) => [p.preview_rps, p.bare_rps])) * 1.1;
  // Connection counts are spread evenly (1, 10, 50, 100 would crowd a linear axis).
  const x = (i: number) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, points.length - 1);
  const y = (v: number) => H - PAD.bottom - (v * (H - PAD.top - PAD.bottom)) / maxY;
  const ticks = Array.from({ length: 5 }, (_, i) => (maxY * i) / 4);
  const grid = ticks.map(
    (v) =>
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end">${Math.round(v / 1000)}k</text>`,
  );
  const xLabels = points.map((p, i) => `<text x="${x(i)}" y="${H - PAD.bottom + 18}" text-anchor="middle">${p.connections}</text>`);
  const lines = SERIES.map((s, n) => {
    const coords = points.map((p, i) => `${x(i).toFixed(1)},${y(p[s.key]).toFixed(1)}`);
    const dots = coords.map((c) => `<circle cx="${c.split(',')[0]}" cy="${c.split(',')[1]}" r="3" fill="${s.color}"/>`).join('');
    const legend = `<rect x="${W - PAD.right + 12}" y="${PAD.top + n * 20}" width="12" height="12" fill="${s.color}"/><text x="${W - PAD.right + 30}" y="${PAD.top + n * 20 + 10}">${s.label}</text>`;
    return `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${coords.join(' ')}"/>${dots}${legend}`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${PAD.left}" y="20" font-size="14">Requests/s vs connections (autocannon, loopback)</text>`,
    `<text x="${PAD.left}" y="34" fill="#666">${subtitle}</text>`,
    ...grid,
    ...xLabels,
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 12}" text-anchor="middle">connections</text>`,
    ...lines,
    '</svg>',
  ].join('\n');
}
