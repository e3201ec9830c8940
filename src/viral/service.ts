import Type from 'typebox';
import { curatedFile, Origin } from '../core/curated.js';
import { ApiError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { UpstreamClient } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import type { ViralRepo } from '../store/repos/viral.js';
import { channelFeeds, searchToday, topByViews, type Video } from './sources.js';

export const NICHES = ['markets', 'tech', 'ai', 'trade'] as const;
export type Niche = (typeof NICHES)[number];

export const REFRESH_EVERY_MS = 30 * 60_000;
const KEEP_MS = 24 * 3600_000;
const DEADLINE_MS = 8000;

const Niches = Type.Object({
  version: Type.Literal(1),
  origin: Origin,
  source_note: Type.String(),
  // Every niche must be configured: the file is checked on first use, so a missing niche fails loudly.
  niches: Type.Object(
    Object.fromEntries(NICHES.map((n) => [n, Type.Object({ query: Type.String(), channels: Type.Array(Type.String()) })])),
  ),
});
const niches = curatedFile(new URL('./niches.v1.json', import.meta.url), Niches);

const utcDayStart = (ms: number) => ms - (ms % 86_400_000);

export interface RefreshOutcome {
  niche: Niche;
  ok: boolean;
  count?: number;
  source?: string;
  error?: string;
}

export class ViralService {
  constructor(
    private readonly upstream: UpstreamClient,
    private readonly repo: ViralRepo,
    private readonly clock: Clock,
  ) {}

  /** The day's top 5 for a niche: YouTube search when a key is set, else the niche's channel feeds. */
  async refresh(niche: Niche): Promise<RefreshOutcome> {
    const now = this.clock.now();
    const deadline = Date.now() + DEADLINE_MS;
    const { query, channels } = niches().niches[niche]!;
    let videos: Video[];
    let source: string;
    try {
      if (this.upstream.hasKey('youtube')) {
        [videos, source] = [await searchToday(this.upstream.host('youtube'), query, utcDayStart(now), deadline), 'youtube'];
      } else {
        [videos, source] = [
          await channelFeeds(this.upstream.host('youtube-feeds'), channels, Math.floor((now - 86_400_000) / 1000), deadline),
          'youtube-feeds',
        ];
      }
    } catch (e) {
      if (e instanceof UpstreamError) return { niche, ok: false, error: e.reason };
      throw e;
    }
    const top5 = topByViews(videos);
    if (!top5.length) return { niche, ok: false, error: 'no_data' };
    await this.repo.save({
      niche,
      fetched_at: now,
      date: new Date(now).toISOString().slice(0, 10),
      source,
      top5_json: JSON.stringify(top5),
    });
    await this.repo.pruneBefore(now - KEEP_MS);
    return { niche, ok: true, count: top5.length, source };
  }

  refreshAll(): Promise<RefreshOutcome[]> {
    return Promise.all(NICHES.map((n) => this.refresh(n)));
  }

  /** The newest list of the last 24 h; a niche never refreshed is refreshed now. */
  async today(niche: Niche) {
    let list = await this.repo.latest(niche, this.clock.now() - KEEP_MS);
    if (!list) {
      const outcome = await this.refresh(niche);
      if (!outcome.ok)
        throw new ApiError('upstream_unavailable', `no viral list for ${niche} yet and the refresh failed (${outcome.error})`, {
          reason: outcome.error,
        });
      list = await this.repo.latest(niche, this.clock.now() - KEEP_MS);
    }
    return {
      niche,
      date: list!.date,
      source: list!.source,
      as_of: Math.floor(list!.fetched_at / 1000),
      top5: JSON.parse(list!.top5_json) as Video[],
    };
  }
}
