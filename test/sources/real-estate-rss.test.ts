import { describe, expect, it } from 'vitest';
import { fromCsv, parseZip, soldAt } from '../../src/sources/real-estate-rss.js';
import { regionId } from '../../src/upstream/formats/redfin-autocomplete.js';

const HEADER =
  'SALE TYPE,SOLD DATE,PROPERTY TYPE,ADDRESS,CITY,STATE OR PROVINCE,ZIP OR POSTAL CODE,PRICE,BEDS,BATHS,LOCATION,SQUARE FEET,LOT SIZE,YEAR BUILT,DAYS ON MARKET,$/SQUARE FEET,HOA/MONTH,STATUS,NEXT OPEN HOUSE START TIME,NEXT OPEN HOUSE END TIME,URL (SEE https://www.redfin.com/buy-a-home/comparative-market-analysis FOR INFO ON PRICING),SOURCE,MLS#,FAVORITE,INTERESTED,LATITUDE,LONGITUDE';
const line = (type: string, date: string, address: string, zip: string, price: string) =>
  `${type},${date},Single Family Residential,${address},Austin,TX,${zip},${price},3,2,Downtown,1650,5000,1998,,318,,Sold,,,https://www.redfin.com/TX/Austin/x/home/1,ACTRIS,1234567,N,Y,30.2672,-97.7431`;
const autocomplete = (payload: unknown) => `{}&&${JSON.stringify({ version: 580, errorMessage: 'Success', resultCode: 0, payload })}`;

describe('real-estate-rss q', () => {
  it('takes exactly five digits', () => {
    expect(parseZip('78701')).toBe('78701');
    for (const q of ['', '7870', '787011', '78701-1234', 'abcde', ' 78701x'])
      expect(() => parseZip(q)).toThrowError(expect.objectContaining({ code: 'invalid_q' }));
  });
});

describe('real-estate-rss region lookup', () => {
  it('reads the zip region id from exactMatch, else from the section rows', () => {
    expect(regionId(autocomplete({ exactMatch: { id: '2_30749', type: 2, name: '94110' }, sections: [] }), '94110')).toBe('30749');
    const rows = [
      { id: '6_17151', type: 6, name: 'San Francisco' },
      { id: '2_30749', type: 2, name: '94110' },
    ];
    expect(regionId(autocomplete({ exactMatch: null, sections: [{ rows }] }), '94110')).toBe('30749');
  });

  it('answers no_data when Redfin has no zip region and bad_response when the answer is not JSON', () => {
    expect(() =>
      regionId(autocomplete({ sections: [{ rows: [{ id: '6_17151', type: 6, name: '94110 Street' }] }] }), '94110'),
    ).toThrowError(expect.objectContaining({ reason: 'no_data' }));
    expect(() => regionId('<html>captcha</html>', '94110')).toThrowError(expect.objectContaining({ reason: 'upstream_bad_response' }));
    expect(() => regionId('{}&&{"payload":3}', '94110')).toThrowError(expect.objectContaining({ reason: 'upstream_bad_response' }));
  });
});

describe('real-estate-rss CSV', () => {
  it('reads Redfin sale dates as midnight UTC', () => {
    expect(soldAt('October-31-2025')).toBe(Date.UTC(2025, 9, 31) / 1000);
    expect(soldAt('November-4-2026')).toBe(Date.UTC(2026, 10, 4) / 1000);
    expect(soldAt('Smarch-1-2026')).toBeNull();
    expect(soldAt('2026-11-04')).toBeNull();
  });

  it('skips the disclaimer, keeps past sales of the zip newest first, and nulls blank prices', () => {
    const csv = [
      '"In accordance with local MLS rules, some MLS listings are not included in the download"',
      HEADER,
      line('PAST SALE', 'October-31-2026', '123 Main St', '78701', ''),
      line('MLS Listing', '', '9 Active Rd', '78701', '600000'),
      line('PAST SALE', 'November-12-2026', '"5 Oak Ln, Unit 2"', '78701', '525000'),
      line('PAST SALE', 'November-20-2026', '7 Other Zip Way', '78702', '410000'),
      '',
    ].join('\r\n');
    const rows = fromCsv(csv, '78701');
    expect(rows.map((r) => [r.address, r.price_usd, r.sold_at])).toEqual([
      ['5 Oak Ln, Unit 2', 525000, Date.UTC(2026, 10, 12) / 1000],
      ['123 Main St', null, Date.UTC(2026, 9, 31) / 1000],
    ]);
    expect(rows[0]).toMatchObject({
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      beds: 3,
      baths: 2,
      sqft: 1650,
      year_built: 1998,
      url: 'https://www.redfin.com/TX/Austin/x/home/1',
      lat: 30.2672,
      lon: -97.7431,
    });
  });

  it('keeps at most 50 homes', () => {
    const lines = Array.from({ length: 60 }, (_, i) => line('PAST SALE', `November-${(i % 28) + 1}-2026`, `${i} Elm St`, '78701', '1'));
    expect(fromCsv([HEADER, ...lines].join('\n'), '78701')).toHaveLength(50);
  });

  it('answers no_data for a header-only CSV and bad_response for something else', () => {
    expect(() => fromCsv(`${HEADER}\n`, '78701')).toThrowError(expect.objectContaining({ reason: 'no_data' }));
    expect(() => fromCsv('<html>Access denied</html>', '78701')).toThrowError(expect.objectContaining({ reason: 'upstream_bad_response' }));
    expect(() => fromCsv(`${HEADER}\n"PAST SALE,unclosed`, '78701')).toThrowError(
      expect.objectContaining({ reason: 'upstream_bad_response' }),
    );
  });
});
