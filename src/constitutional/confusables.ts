/**
 * Homoglyphs that survive NFKC and map to a Latin letter or digit: the Cyrillic, Greek, Armenian and
 * Cherokee entries of Unicode's confusables.txt (UTS #39, https://www.unicode.org/Public/security/latest/confusables.txt)
 * whose prototype is one ASCII letter or digit. A subset, kept small on purpose: fullwidth and
 * mathematical letters are already folded by NFKC, and the rest of the file maps symbols we do not
 * need for reading instructions. (The npm package `unhomoglyph` ships the full table; see the README.)
 */
const GROUPS: Record<string, string> = {
  a: 'аɑαа⍺',
  b: 'Ьъᖯ',
  c: 'сϲᴄⅽ',
  d: 'ԁᑯⅾ',
  e: 'еҽ℮ꬲ',
  g: 'ɡց',
  h: 'һհᏂ',
  i: 'іɩιӏ⍳ı',
  j: 'јϳ',
  k: 'κᴋ',
  l: 'ӀⅼǀⵏⅠ',
  m: 'ⅿ',
  n: 'ոռ',
  o: 'оοօ০୦ჿσ',
  p: 'рρ⍴',
  q: 'ԛգ',
  r: 'гᴦ',
  s: 'ѕꜱ',
  t: 'τ',
  u: 'υսᴜ',
  v: 'ѵνᴠⅴ',
  w: 'ԝѡᴡ',
  x: 'хⅹ',
  y: 'уүγ',
  z: 'ᴢ',
  A: 'АΑᎪ',
  B: 'ВΒᏴ',
  C: 'СϹᏟ',
  E: 'ЕΕᎬ',
  H: 'НΗᎻ',
  I: 'ІΙ',
  J: 'ЈᎫ',
  K: 'КΚᏦ',
  M: 'МΜᎷ',
  N: 'Ν',
  O: 'ОΟՕ',
  P: 'РΡᏢ',
  S: 'ЅᏚ',
  T: 'ТΤᎢ',
  X: 'ХΧ',
  Y: 'ҮΥ',
  Z: 'ΖᏃ',
  '0': 'Ｏ',
  '3': 'З',
};

/** Confusable character → its Latin prototype. */
export const CONFUSABLES: ReadonlyMap<string, string> = new Map(
  Object.entries(GROUPS).flatMap(([latin, lookalikes]) => [...lookalikes].map((c) => [c, latin] as const)),
);
