import type * as FastXmlParser from 'fast-xml-parser';
import { requireOnce } from '../../core/import-once.js';
import { UpstreamError } from '../errors.js';

/** One entry of an Atom feed or one item of an RSS 2.0 feed, as text (null where the feed gives none). */
export interface FeedEntry {
  id: string | null;
  title: string | null;
  /** Atom: the first link's href; RSS: the item link. */
  link: string | null;
  /** Atom summary or content; RSS description. */
  summary: string | null;
  /** Atom updated (or published); RSS pubDate: the date text as sent. */
  date: string | null;
  author: string | null;
  /** Atom category term; RSS category. */
  category: string | null;
}

// Values stay text (ids and CIKs look numeric); HTML entities such as &#39; are decoded.
// Built on the first feed read (the parser is megabytes a server that reads no feed would keep).
const fastXmlParser = requireOnce<typeof FastXmlParser>('fast-xml-parser');
let xml: FastXmlParser.XMLParser | undefined;
const feedParser = () =>
  (xml ??= new (fastXmlParser().XMLParser)({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, htmlEntities: true }));

/** Elements with attributes (`<summary type="html">`) parse to `{'#text': …}`; absent or empty ones are null. */
function textOf(value: unknown): string | null {
  const text = value && typeof value === 'object' ? (value as { '#text'?: unknown })['#text'] : value;
  return typeof text === 'string' || typeof text === 'number' ? String(text) : null;
}
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : ([value].flat() as T[]));
export type Node = Record<string, unknown>;

function atomEntry(e: Node): FeedEntry {
  const link = list(e.link as Node | Node[] | undefined)[0];
  const author = e.author as Node | undefined;
  const category = list(e.category as Node | Node[] | undefined)[0];
  return {
    id: textOf(e.id),
    title: textOf(e.title),
    link: textOf(link?.href),
    summary: textOf(e.summary) ?? textOf(e.content),
    date: textOf(e.updated) ?? textOf(e.published),
    author: textOf(author?.name),
    category: textOf(category?.term),
  };
}

function rssItem(i: Node): FeedEntry {
  const category = list(i.category)[0];
  return {
    id: textOf(i.guid),
    title: textOf(i.title),
    link: textOf(i.link),
    summary: textOf(i.description),
    date: textOf(i.pubDate),
    author: textOf(i.author) ?? textOf(i['dc:creator']),
    category: textOf(category),
  };
}

type Doc = { feed?: Node; rss?: { channel?: Node } };

function parseXml(text: string, upstream: string): Doc {
  try {
    return feedParser().parse(text) as Doc;
  } catch {
    throw new UpstreamError('upstream_bad_response', `${upstream} sent a feed that is not XML`);
  }
}

/** The entries of an Atom feed as parsed nodes, for feeds that extend Atom (YouTube's `media:statistics`). */
export function atomNodes(text: string, upstream: string): Node[] {
  const doc = parseXml(text, upstream);
  if (!doc.feed || typeof doc.feed !== 'object') {
    throw new UpstreamError('upstream_bad_response', `${upstream} sent something other than an Atom feed`);
  }
  return list(doc.feed.entry as Node | Node[] | undefined);
}

/** An Atom or RSS 2.0 document → its entries; anything else is `upstream_bad_response` naming the upstream. */
export function parseFeed(text: string, upstream: string): FeedEntry[] {
  const doc = parseXml(text, upstream);
  if (doc.feed && typeof doc.feed === 'object') return list(doc.feed.entry as Node | Node[] | undefined).map(atomEntry);
  if (doc.rss?.channel && typeof doc.rss.channel === 'object') return list(doc.rss.channel.item as Node | Node[] | undefined).map(rssItem);
  throw new UpstreamError('upstream_bad_response', `${upstream} sent something other than an Atom or RSS feed`);
}
