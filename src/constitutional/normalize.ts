import { CONFUSABLES } from './confusables.js';

/**
 * Text normalization for classifiers (the constitutional classifier, and AgentShield later): one
 * canonical form plus every embedded encoding decoded into its own layer, so a rule written for plain
 * English also sees base64, hex, ROT13, leetspeak, percent/entity/escape encodings, spaced-out letters,
 * reversed text and Unicode tag characters. Pure and synchronous; bounded in layers and depth.
 */
export type LayerKind =
  | 'original'
  | 'normalized'
  | 'base64'
  | 'hex'
  | 'url'
  | 'html_entities'
  | 'unicode_escapes'
  | 'rot13'
  | 'leetspeak'
  | 'despaced'
  | 'reversed'
  | 'tag_chars'
  | 'braille';

export interface Layer {
  kind: LayerKind;
  text: string;
  /** 0 for the original and normalized text, n for a layer decoded from a depth n−1 layer. */
  depth: number;
}

/** What normalization had to undo: evidence of obfuscation in itself. */
export interface Signals {
  /** Invisible characters inside words. */
  zero_width: number;
  /** Words written with look-alikes that read as plain Latin once folded (Russian or Greek prose does not). */
  confusables: number;
  /** Unicode tag characters (U+E0000–E007F), invisible ASCII look-alikes, outside subdivision flags. */
  tag_chars: number;
  /** Characters NFKC folded (fullwidth, mathematical alphanumerics, circled letters…). */
  nfkc_folded: number;
  /** Letters from scripts rarely used for prose here (Braille, runic, Ogham, Cherokee, Canadian syllabics…). */
  unusual_script: number;
  /** Words mixing Latin with Cyrillic or Greek letters before folding. */
  mixed_script_words: number;
}

export interface Normalization {
  layers: Layer[];
  signals: Signals;
}

const MAX_DEPTH = 3;
const MAX_LAYERS = 16;
/** Zero-width, joiners, soft hyphen, bidi controls, word joiner, invisible operators, BOM, Mongolian vowel separator. */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const TAG_CHARS = /[\u{e0000}-\u{e007f}]/gu;
/** Invisible characters between two letters: inside a word, where emoji joiners never are. */
const INVISIBLE_IN_WORD = /(?<=\p{L})[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]+(?=\p{L})/gu;
/** Subdivision flags (🏴 + tag letters + cancel tag) are the one legitimate use of tag characters. */
const FLAG_TAGS = /\u{1f3f4}[\u{e0061}-\u{e007a}]+\u{e007f}/gu;
const UNUSUAL = /[\u2800-\u28ff\u16a0-\u16ff\u1680-\u169f\u13a0-\u13ff\u1400-\u167f\u{10330}-\u{1034f}]/gu;

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
const foldConfusables = (text: string) => text.replace(/[^\p{ASCII}]/gu, (c) => CONFUSABLES.get(c) ?? c);

/** The canonical form: invisible characters removed, NFKC, confusables folded to Latin, spaces and blank lines collapsed. */
export function normalizeText(text: string): string {
  const folded = foldConfusables(text.replace(INVISIBLE, '').replace(TAG_CHARS, '').normalize('NFKC'));
  // Line breaks stay (line-anchored rules and sentence gaps read them); other runs of space become one.
  return folded
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

/**
 * Words with non-ASCII letters: `disguised` when three or more letters fold to plain Latin (a disguise,
 * not a script), `mixed` when Latin sits with Cyrillic or Greek in one word.
 */
function wordSignals(text: string): { disguised: number; mixed: number } {
  let disguised = 0;
  let mixed = 0;
  for (const word of text.match(/\p{L}+/gu) ?? []) {
    if (!/[^\p{ASCII}]/u.test(word)) continue;
    if (word.length >= 3 && /^[A-Za-z]+$/.test(foldConfusables(word))) disguised++;
    if (/\p{Script=Latin}/u.test(word) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(word)) mixed++;
  }
  return { disguised, mixed };
}

function signalsOf(text: string): Signals {
  // Plain ASCII (most text) has no look-alikes, compatibility forms, invisible or unusual characters.
  if (!/[^\p{ASCII}]/u.test(text))
    return { zero_width: 0, confusables: 0, tag_chars: 0, nfkc_folded: 0, unusual_script: 0, mixed_script_words: 0 };
  const visible = text.replace(INVISIBLE, '').replace(TAG_CHARS, '');
  const nfkc = visible.normalize('NFKC');
  const words = wordSignals(nfkc);
  return {
    zero_width: count(text, INVISIBLE_IN_WORD),
    confusables: words.disguised,
    tag_chars: count(text.replace(FLAG_TAGS, ''), TAG_CHARS),
    nfkc_folded: [...visible].filter((c) => c.charCodeAt(0) > 0x7f && c.normalize('NFKC') !== c).length,
    unusual_script: count(text, UNUSUAL),
    mixed_script_words: words.mixed,
  };
}

/** Words an instruction is made of: the vocabulary that re-segments spaced-out letters. */
const INSTRUCTION_WORDS = new Set(
  (
    'ignore previous prior above instructions rules reveal system prompt developer mode on off is answer ' +
    'without limits secrets disregard forget override password admin root print bomb pipe how make ' +
    'jailbreak enable pretend filter no restrictions tell say api key keys show everything now you are an ' +
    'ai all the and to of your me what do not any give send write'
  ).split(' '),
);

/**
 * "ignoreallprevious" → "ignore all previous": fewest letters outside known words (dynamic programming),
 * so a run of spaced-out letters reads as words again and word-bounded rules match it.
 */
function segment(run: string): string {
  const lower = run.toLowerCase();
  // cost[i]: fewest unknown letters in run[0, i); from[i]: where the last piece (a word, or one unknown letter) starts.
  const cost = [0];
  const from = [0];
  for (let i = 1; i <= lower.length; i++) {
    cost[i] = cost[i - 1]! + 1;
    from[i] = i - 1;
    for (let j = Math.max(0, i - 12); j < i - 1; j++) {
      if (cost[j]! < cost[i]! && INSTRUCTION_WORDS.has(lower.slice(j, i))) [cost[i], from[i]] = [cost[j]!, j];
    }
  }
  const pieces: string[] = [];
  for (let i = lower.length; i > 0; i = from[i]!) pieces.unshift(run.slice(from[i], i));
  // Unknown letters stay glued together; known words get their spaces back.
  return pieces.reduce((out, piece, k) => (k && (piece.length > 1 || pieces[k - 1]!.length > 1) ? `${out} ${piece}` : out + piece), '');
}

const COMMON = new Set(
  (
    'the you your and to of ignore instructions previous system prompt all rules tell me how password ' +
    'secret key is are what now reveal print make a an in for with this that please give send write show ' +
    'say do not any'
  ).split(' '),
);
const wordsOf = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];
const commonWords = (text: string) => wordsOf(text).filter((w) => COMMON.has(w)).length;
/** Share of ordinary English words: above it, a text already reads as English and ciphers are not tried. */
const ENGLISH_ENOUGH = 0.12;
/** A cipher is worth a layer when the text does not read as English yet and deciphered it noticeably does. */
let lastShare: { text: string; words: number; common: number } | undefined;
/** Words and common words of a text; remembered for the last text, which ROT13 and reversal both ask about. */
function englishOf(text: string) {
  if (lastShare?.text !== text) {
    const words = wordsOf(text);
    lastShare = { text, words: words.length, common: words.filter((w) => COMMON.has(w)).length };
  }
  return lastShare;
}

function decipher(text: string, transform: (t: string) => string): string | undefined {
  const { words, common } = englishOf(text);
  if (words && common / words >= ENGLISH_ENOUGH) return undefined;
  const candidate = transform(text);
  return commonWords(candidate) >= Math.max(3, common + 3) ? candidate : undefined;
}

/** Mostly printable text with some letters: what a decoded payload must look like to count. */
function readable(text: string): boolean {
  if (text.length < 6 || text.includes('\ufffd')) return false;
  const printable = count(text, /[\p{L}\p{N}\p{P}\p{Zs}\n\t$+<=>^`|~]/gu);
  return printable / [...text].length > 0.9 && count(text, /\p{L}/gu) >= 4;
}

const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)));
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
};
/** A short word mixing letters with digits or symbols (long tokens are identifiers or base64, not leetspeak). */
const LEET_WORD = /(?<![\w@$!|])(?=[\w@$!|]{0,14}[a-z])(?=[\w@$!|]{0,14}[0-9@$|])[\w@$!|]{3,15}(?![\w@$!|])/gi;

function decodeTokens(text: string, re: RegExp, decode: (token: string) => string): string | undefined {
  const decoded = (text.match(re) ?? []).map((t) => decode(t)).filter(readable);
  return decoded.length ? decoded.join('\n') : undefined;
}

const fromBase64 = (t: string) => Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
const fromHex = (t: string) => Buffer.from(t.replace(/\\x|0x|[\s:]/gi, ''), 'hex').toString('utf8');

/** Each decoder: the decoded text, or undefined when the layer has nothing of its kind. */
const DECODERS: [LayerKind, (text: string) => string | undefined][] = [
  ['base64', (t) => decodeTokens(t, /(?<![A-Za-z0-9+/_-])(?![0-9a-fA-F]+\b)[A-Za-z0-9+/_-]{16,}={0,2}/g, fromBase64)],
  ['hex', (t) => decodeTokens(t, /(?:(?:\\x|0x)?[0-9a-fA-F]{2}[\s:]?){8,}/g, fromHex)],
  ['url', (t) => (count(t, /%[0-9a-f]{2}/gi) >= 3 ? safely(() => decodeURIComponent(t.replace(/\+/g, ' '))) : undefined)],
  [
    'html_entities',
    (t) =>
      count(t, /&#x?[0-9a-f]+;/gi) >= 3
        ? t.replace(/&#(x?)([0-9a-f]+);/gi, (_, x: string, n: string) => codePoint(parseInt(n, x ? 16 : 10)))
        : undefined,
  ],
  [
    'unicode_escapes',
    (t) => (count(t, /\\u[0-9a-f]{4}/gi) >= 3 ? t.replace(/\\u([0-9a-f]{4})/gi, (_, n: string) => codePoint(parseInt(n, 16))) : undefined),
  ],
  ['rot13', (t) => (/\brot-?13\b/i.test(t) ? rot13(t) : decipher(t, rot13))],
  ['leetspeak', unleet],
  ['despaced', despace],
  ['braille', (t) => fromBraille(t)],
  ['reversed', (t) => decipher(t, (x) => [...x].reverse().join(''))],
];

/** Grade-1 Braille letters (U+2801…), the one unusual script spelled letter for letter. */
const BRAILLE = new Map([...'⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵'].map((c, i) => [c, String.fromCharCode(97 + i)]));
const fromBraille = (t: string) =>
  count(t, /[\u2801-\u28ff]/g) >= 4 ? t.replace(/[\u2800-\u28ff]/g, (c) => BRAILLE.get(c) ?? (c === '\u2800' ? ' ' : c)) : undefined;

const codePoint = (n: number) => (n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');
function safely(decode: () => string): string | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

/** Only the sentences with leetspeak words, read back as letters: a layer as long as the disguise, not the text. */
function unleet(text: string): string | undefined {
  if (count(text, LEET_WORD) < 2) return undefined;
  const sentences = text.split(/(?<=[.!?\n])\s+/).filter((s) => count(s, LEET_WORD) > 0);
  return sentences.map((s) => s.replace(LEET_WORD, (w) => w.replace(/[0-9@$!|]/g, (c) => LEET[c] ?? c))).join('\n');
}

/** Spaced-out letters joined again; wider gaps (kept in the raw text) still separate words. */
function despace(text: string): string | undefined {
  if (!/(?:\b\w[ .\-_*]){5,}\w\b/.test(text)) return undefined;
  return text.replace(/(?:\b\w[ .\-_*])+\w\b/g, (run) => {
    const joined = run.replace(/[ .\-_*]/g, '');
    // A run no longer than a word is one word; a longer one lost its word gaps and is re-segmented.
    return joined.length > 12 ? segment(joined) : joined;
  });
}

/** Tag characters spell ASCII invisibly (U+E0041 = "A"): decoded into a layer of their own. */
function tagLayer(text: string): string | undefined {
  const tags = text.match(TAG_CHARS);
  return tags && tags.length >= 4 ? tags.map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join('') : undefined;
}

const SUBSTITUTIONS: ReadonlySet<LayerKind> = new Set(['rot13', 'leetspeak', 'despaced', 'reversed', 'braille']);

/** The original text, its canonical form, and every decoded layer (breadth-first, depth ≤ 3, ≤ 16 layers). */
export function normalize(text: string): Normalization {
  const normalized = normalizeText(text);
  const layers: Layer[] = [
    { kind: 'original', text, depth: 0 },
    { kind: 'normalized', text: normalized, depth: 0 },
  ];
  const seen = new Set([normalized]);
  const add = (kind: LayerKind, decoded: string | undefined, depth: number) => {
    const canonical = decoded === undefined ? undefined : normalizeText(decoded);
    if (!canonical || seen.has(canonical) || layers.length >= MAX_LAYERS) return;
    seen.add(canonical);
    layers.push({ kind, text: canonical, depth });
  };
  add('tag_chars', tagLayer(text), 1);
  add('despaced', despace(text.replace(INVISIBLE, '').normalize('NFKC')), 1);
  for (let i = 1; i < layers.length; i++) {
    const layer = layers[i]!;
    if (layer.depth >= MAX_DEPTH) continue;
    for (const [kind, decode] of DECODERS) {
      // Letter substitutions are undone once: a leetspeak reading of a ROT13 reading is noise, not a layer.
      if (SUBSTITUTIONS.has(kind) && SUBSTITUTIONS.has(layer.kind)) continue;
      add(kind, decode(layer.text), layer.depth + 1);
    }
  }
  return { layers, signals: signalsOf(text) };
}
