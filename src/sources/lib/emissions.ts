import type { HostHttp } from '../../upstream/client.js';
import { noData } from '../../upstream/errors.js';
import { CoinSearch } from '../../upstream/formats/coingecko-search.js';
import { Emissions, emissionsSlug, ProtocolsList } from '../../upstream/formats/defillama-emissions.js';

/** A token and the DefiLlama emissions file that may hold its schedule. */
export interface Candidate {
  symbol: string;
  name: string;
  slug: string;
  /** CoinGecko id, to check the file is about this token (files carry `gecko_id`). */
  geckoId?: string;
}

/** Emissions files tried per query, at most (each is 0.1–2.5 MB). */
const MAX_FILES = 3;

/**
 * Files that may hold the schedule of the token with this symbol: CoinGecko's coins with exactly that symbol (largest
 * market cap first) named as DefiLlama names its files (by protocol name, or by the CoinGecko id). Only files in
 * DefiLlama's index are tried: guessing at unlisted names would spend requests on 404s (the few known unlisted files
 * are in the curated map).
 */
export async function candidatesFor(symbol: string, datasets: HostHttp, coingecko: HostHttp, deadline: number): Promise<Candidate[]> {
  const [listed, search] = await Promise.all([
    datasets.json<ProtocolsList>('/emissionsProtocolsList', ProtocolsList, { deadline }),
    coingecko.json<CoinSearch>('/api/v3/search', CoinSearch, { deadline, query: { query: symbol } }),
  ]);
  const inList = new Set(listed);
  const coins = search.coins.filter((c) => c.symbol.toUpperCase() === symbol);
  const candidates = coins.flatMap((c) => [emissionsSlug(c.name), c.id].map((slug) => ({ symbol, name: c.name, slug, geckoId: c.id })));
  const unique = [...new Map(candidates.map((c) => [c.slug, c])).values()];
  return unique.filter((c) => inList.has(c.slug)).slice(0, MAX_FILES);
}

/** The first candidate whose file is about that token (a file of another coin with the same name is skipped). */
export async function emissionsOf(
  datasets: HostHttp,
  symbol: string,
  candidates: Candidate[],
  deadline: number,
): Promise<[Candidate, Emissions]> {
  for (const candidate of candidates) {
    const file = await datasets.json<Emissions>(`/emissions/${candidate.slug}`, Emissions, { deadline });
    if (!file.gecko_id || !candidate.geckoId || file.gecko_id === candidate.geckoId) return [candidate, file];
  }
  throw noData(`DefiLlama's emissions data has no schedule for ${symbol}`);
}
