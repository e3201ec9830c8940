/** svc's look, shared by every page it serves (landing, discovery pages, /docs, the public HTML pages). */

/** The logo, also the favicon: a navy tile with the name. */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="svc"><rect width="64" height="64" rx="12" fill="#1f3a5f"/><text x="32" y="40" font-family="system-ui,sans-serif" font-size="22" fill="#fff" text-anchor="middle">svc</text></svg>';

export const FAVICON_PATH = '/favicon.svg';
export const FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">`;

/** The pages a visitor moves between; `current` is marked for assistive technology. */
export const SITE_PAGES = [
  { href: '/', label: 'svc' },
  { href: '/docs', label: 'API reference' },
  { href: '/status', label: 'Status' },
  { href: '/olympics', label: 'Olympics' },
  { href: '/how-svc-saves-agents-money', label: 'Pricing' },
] as const;

export const siteNav = (current?: string): string =>
  `<nav class="site" aria-label="Site">${SITE_PAGES.map(
    (p) => `<a href="${p.href}"${p.href === current ? ' aria-current="page"' : ''}>${p.label}</a>`,
  ).join(' · ')}</nav>`;

/** The style of the pages svc renders itself (landing, pricing, why-svc). */
export const PAGE_CSS =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:0 1rem 2rem;color:#1c1d1f}' +
  'a{color:#1a5fd0}code,pre{background:#f1f3f5;border-radius:4px}code{padding:0 .2em}pre{padding:.6rem .8rem;overflow-x:auto}' +
  'pre code{padding:0}table{border-collapse:collapse;display:block;overflow-x:auto}td,th{border:1px solid #ccc;padding:.2em .5em}' +
  'nav.site{border-bottom:1px solid #dfe1e4;padding:.6rem 0;margin-bottom:1rem;font-size:.9rem}' +
  '.types{padding-left:1.2rem}.types li{margin:.3rem 0}.q{color:#5d6168;font-size:.85rem}h1 img{vertical-align:middle;margin-right:.5rem}';
