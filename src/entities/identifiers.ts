/** Check digits of the identifiers in the entity graph, so a mistyped ISIN or CUSIP cannot slip in. */

const charValue = (ch: string): number => {
  if (/\d/.test(ch)) return Number(ch);
  if (/[A-Z]/.test(ch)) return ch.charCodeAt(0) - 55;
  return { '*': 36, '@': 37, '#': 38 }[ch] ?? Number.NaN;
};

/** CUSIP: 8 characters + a check digit (double every second value, sum the digits). */
export function cusipCheckDigit(base8: string): string {
  let sum = 0;
  for (const [i, ch] of [...base8].entries()) {
    const v = charValue(ch) * (i % 2 === 1 ? 2 : 1);
    sum += Math.floor(v / 10) + (v % 10);
  }
  return String((10 - (sum % 10)) % 10);
}

export const isValidCusip = (cusip: string): boolean => /^[0-9A-Z*@#]{8}\d$/.test(cusip) && cusipCheckDigit(cusip.slice(0, 8)) === cusip[8];

/** ISIN: country + 9 characters + a Luhn check digit over the letters expanded to numbers. */
export function isinCheckDigit(body11: string): string {
  const digits = [...body11].map((ch) => String(charValue(ch))).join('');
  let sum = 0;
  for (const [i, d] of [...digits].reverse().entries()) {
    let n = Number(d);
    if (i % 2 === 0) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  }
  return String((10 - (sum % 10)) % 10);
}

export const isValidIsin = (isin: string): boolean =>
  /^[A-Z]{2}[0-9A-Z]{9}\d$/.test(isin) && isinCheckDigit(isin.slice(0, 11)) === isin[11];
