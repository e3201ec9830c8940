import Type from 'typebox';
import { atomNodes } from '../upstream/formats/feed.js';
import type { HostHttp } from '../upstream/client.js';
import { parseUnixSeconds } from '../core/clock.js';

export interface Video {
  video_id: string;
  title: string;
  channel: string;
  published_at: number;
  views: number;
  url: string;
  thumbnail_url: string | null;
}

const Search = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Object({ videoId: Type.Optional(Type.String()) }),
      snippet: Type.Object({ title: Type.String(), channelTitle: Type.String(), publishedAt: Type.String() }),
    }),
  ),
});
const Stats = Type.Object({
  items: Type.Array(Type.Object({ id: Type.String(), statistics: Type.Object({ viewCount: Type.Optional(Type.String()) }) })),
});

const watchUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const thumbnail = (id: string) => `https://i.ytimg.com/vi/${id}/hqdefault.jpg`;

/** The n most viewed, each video once (a video can appear in two feeds or searches). */
export function topByViews(videos: Video[], n = 5): Video[] {
  const unique = new Map(videos.map((v) => [v.video_id, v]));
  return [...unique.values()].sort((a, b) => b.views - a.views).slice(0, n);
}

/** YouTube Data API v3: today's videos for the niche's phrase, then their view counts (two calls, 101 quota units). */
export async function searchToday(http: HostHttp, query: string, dayStartMs: number, deadline: number): Promise<Video[]> {
  const search = await http.json<Type.Static<typeof Search>>('/youtube/v3/search', Search, {
    deadline,
    query: {
      part: 'snippet',
      type: 'video',
      order: 'viewCount',
      maxResults: 25,
      q: query,
      publishedAfter: new Date(dayStartMs).toISOString(),
    },
  });
  const ids = search.items.flatMap((i) => (i.id.videoId ? [i.id.videoId] : []));
  if (!ids.length) return [];
  const stats = await http.json<Type.Static<typeof Stats>>('/youtube/v3/videos', Stats, {
    deadline,
    query: { part: 'statistics', id: ids.join(',') },
  });
  const views = new Map(stats.items.map((s) => [s.id, Number(s.statistics.viewCount ?? 0)]));
  return search.items.flatMap((i) =>
    i.id.videoId
      ? [
          {
            video_id: i.id.videoId,
            title: i.snippet.title,
            channel: i.snippet.channelTitle,
            published_at: parseUnixSeconds(i.snippet.publishedAt),
            views: views.get(i.id.videoId) ?? 0,
            url: watchUrl(i.id.videoId),
            thumbnail_url: thumbnail(i.id.videoId),
          },
        ]
      : [],
  );
}

interface ChannelEntry {
  'yt:videoId'?: string;
  title?: string;
  published?: string;
  author?: { name?: string };
  'media:group'?: { 'media:community'?: { 'media:statistics'?: { views?: string } } };
}

/** A channel's Atom feed (the 15 newest uploads, with view counts) → videos. */
export function parseChannelFeed(text: string): Video[] {
  return (atomNodes(text, 'YouTube') as ChannelEntry[]).flatMap((e) => {
    const id = e['yt:videoId'];
    if (!id || !e.published) return [];
    return [
      {
        video_id: id,
        title: String(e.title ?? ''),
        channel: String(e.author?.name ?? ''),
        published_at: parseUnixSeconds(e.published),
        views: Number(e['media:group']?.['media:community']?.['media:statistics']?.views ?? 0),
        url: watchUrl(id),
        thumbnail_url: thumbnail(id),
      },
    ];
  });
}

export async function channelFeeds(http: HostHttp, channels: string[], sinceS: number, deadline: number): Promise<Video[]> {
  const feeds = await Promise.all(channels.map((id) => http.text('/feeds/videos.xml', { deadline, query: { channel_id: id } })));
  return feeds.flatMap(parseChannelFeed).filter((v) => v.published_at >= sinceS);
}
