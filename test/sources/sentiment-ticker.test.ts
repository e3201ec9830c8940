import { describe, expect, it } from 'vitest';
import { fromRss, toRows } from '../../src/sources/sentiment-ticker.js';

const feed = (...titles: string[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>${titles.map((t, i) => `<item><title><![CDATA[${t}]]></title><link>https://x/${i}</link><pubDate>Sun, 22 Nov 2026 10:0${i}:00 +0000</pubDate></item>`).join('')}</channel></rss>`;

describe('sentiment-ticker RSS', () => {
  it('matches the symbol as a word or a known name, case-insensitively', () => {
    const titles = fromRss(feed('bitcoin slips', 'BTC miners', 'WBTC on Base', 'Ether rallies'), 'CoinDesk', 'BTC').map((h) => h.title);
    expect(titles).toEqual(['bitcoin slips', 'BTC miners']);
  });

  it('reads a single-item feed and refuses a page that is not RSS', () => {
    expect(fromRss(feed('BTC only'), 'CoinDesk', 'BTC')).toHaveLength(1);
    expect(() => fromRss('<html><body>challenge</body></html>', 'CoinDesk', 'BTC')).toThrow(/other than an Atom or RSS feed/);
  });

  it('keeps the headlines without a fear/greed score and needs at least one headline', () => {
    expect(toRows('BTC', [{ title: 'a', url: null, source: null, published_at: 5 }], null)[0]).toMatchObject({
      fear_greed_value: null,
      as_of: 5,
    });
    expect(() => toRows('BTC', [], null)).toThrow(/no recent headline/);
  });

  it('says the fear/greed score is market-wide, with or without a score (regression: a per-asset row implied it was the asset’s)', () => {
    const headline = { title: 'a', url: null, source: null, published_at: 5 };
    const index = { value: 39, label: 'Fear', at: 4 };
    expect(toRows('ETH', [headline], index)[0]).toMatchObject({ symbol: 'ETH', fear_greed_scope: 'crypto_market', fear_greed_value: 39 });
    expect(toRows('ETH', [headline], null)[0]).toMatchObject({ fear_greed_scope: 'crypto_market', fear_greed_value: null });
  });
});
