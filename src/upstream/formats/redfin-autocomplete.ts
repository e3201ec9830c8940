import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { noData, UpstreamError } from '../errors.js';

/** Redfin's region type for zip codes; autocomplete ids read `<region type>_<region id>`. */
export const ZIP_REGION_TYPE = '2';

const Place = Type.Object({ id: Type.String(), name: Type.String() });
const Autocomplete = Type.Object({
  payload: Type.Object({
    exactMatch: Type.Optional(Type.Union([Place, Type.Null()])),
    sections: Type.Optional(Type.Array(Type.Object({ rows: Type.Optional(Type.Array(Place)) }))),
  }),
});
const autocomplete = Compile(Autocomplete);

/** The zip's region id from an autocomplete answer (`{}&&` + JSON, Redfin's anti-hijacking prefix). */
export function regionId(text: string, zip: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\{\}&&/, ''));
  } catch {
    throw new UpstreamError('upstream_bad_response', 'redfin sent an autocomplete answer that is not JSON');
  }
  if (!autocomplete.Check(doc)) {
    throw new UpstreamError('upstream_bad_response', 'redfin sent an autocomplete answer in an unexpected shape');
  }
  const { exactMatch, sections = [] } = doc.payload;
  const places = [exactMatch ?? [], ...sections.map((s) => s.rows ?? [])].flat();
  const hit = places
    .map((p) => ({ name: p.name, id: /^(\d+)_(\d+)$/.exec(p.id) }))
    .find((p) => p.name.startsWith(zip) && p.id?.[1] === ZIP_REGION_TYPE);
  if (!hit) throw noData(`Redfin does not know ZIP code ${zip}`);
  return hit.id![2]!;
}
