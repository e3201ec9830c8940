import { importOnce } from '../../core/import-once.js';

/** Elements whose end separates words in the rendered text. */
const BLOCKS = 'address,article,blockquote,br,dd,div,dl,dt,h1,h2,h3,h4,h5,h6,hr,li,ol,p,pre,section,table,td,th,tr,ul';
const loadLinkedom = importOnce(() => import('linkedom'));

/** HTML text fields (WHO summaries) as plain text: parsed (entities decoded), whitespace collapsed, cut at a word. */
export async function plainText(html: string, max: number): Promise<string> {
  const { parseHTML } = await loadLinkedom();
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  for (const block of document.body.querySelectorAll(BLOCKS)) block.appendChild(document.createTextNode(' '));
  const text = (document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return `${text.slice(0, cut > 0 ? cut : max)}…`;
}
