import type { Wire } from '../config-models.js';
import type { FakeCall, FakeReply } from './model-fakes.js';

/**
 * What the demo's vendor fakes answer (SVC_DEMO without SVC_MODELS): a named answer for each feature that asks a model,
 * recognized by the schema's name or, where the wire carries none, by its fields; else the smallest valid instance.
 * Every answer says it comes from a demo model.
 */
type Json = Record<string, unknown>;

/** The demo's answers: named ones for the features that ship, else a minimal instance of the schema. */
export function demoResponder(call: FakeCall): FakeReply {
  const named = DEMO_ANSWERS[call.schemaName ?? ''] ?? DEMO_ANSWERS[shapeName(call.schema)];
  if (named) return { json: named(call) };
  if (call.schema) return { json: minimalInstance(call.schema) };
  return { text: `Demo model (no language model is configured): received ${call.messages.length} message(s).` };
}

/** The fields that identify each named answer's schema. */
const SIGNATURES: Record<string, string[]> = {
  chart_verdict: ['trend', 'signal', 'confidence', 'levels'],
  olympics_forecast: ['p', 'rationale'],
  constitutional_judgement: ['verdict', 'p_harmful', 'patterns', 'rationale'],
  portfolio_answer: ['answerable', 'answer', 'citations'],
  goal_plan: ['primary', 'supporting', 'decision_recipe'],
};

/** Gemini's responseSchema carries no name and Anthropic's tool may be a generic one: a schema is known by its required fields. */
const shapeName = (schema: Json | undefined): string => {
  const required = new Set((schema?.required ?? []) as string[]);
  const matching = Object.entries(SIGNATURES).filter(([, keys]) => keys.every((k) => required.has(k)));
  return matching.sort(([, a], [, b]) => b.length - a.length)[0]?.[0] ?? '';
};

/** A number in [0, 1) that depends only on the text: the demo models answer the same question the same way. */
const unitOf = (text: string): number => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return (Math.imul(h ^ (h >>> 15), 2246822507) >>> 0) / 2 ** 32;
};
/** Each wire format's fake leans its own way, so the demo panel disagrees a little. */
const LEAN: Record<Wire, number> = { 'openai-chat': 0.06, 'anthropic-messages': -0.04, gemini: 0 };

const quotedData = (call: FakeCall): { label: string; value: Json }[] =>
  call.messages.flatMap((m) => {
    const match = /^Quoted data \((.*)\):\n<data>\n([\s\S]*)\n<\/data>$/.exec(m.text);
    return match ? [{ label: match[1]!, value: JSON.parse(match[2]!) as Json }] : [];
  });

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

/** chart: a fixed verdict per wire format, so the demo panel disagrees a little; the fakes do not read images. */
const DEMO_CHART_VERDICTS: Record<Wire, { trend: string; signal: string; confidence: number; patterns: string[] }> = {
  'openai-chat': { trend: 'up', signal: 'buy', confidence: 0.64, patterns: ['higher lows'] },
  'anthropic-messages': { trend: 'up', signal: 'buy', confidence: 0.57, patterns: ['ascending channel'] },
  gemini: { trend: 'sideways', signal: 'hold', confidence: 0.52, patterns: [] },
};

const DEMO_ANSWERS: Record<string, (call: FakeCall) => unknown> = {
  chart_verdict: (call) => ({
    ...DEMO_CHART_VERDICTS[call.wire],
    horizon: '1-3 days',
    levels: { support: [], resistance: [] },
    rationale: `Demo model (${call.wire} fake): a fixed demo verdict; it received ${call.messages.reduce((n, m) => n + m.images, 0)} image(s) and did not read them.`,
  }),
  /** agent-context: the catalog lines of the system prompt that share the most words with the goal, with their example q. */
  goal_plan: (call) => {
    const goal = words(call.messages.at(-1)?.text ?? '');
    const lines = [...call.system.matchAll(/^- ([a-z0-9-]+): q = .*?, e\.g\. "(.*?)"; (.*)$/gm)];
    const scored = lines.map(([, type, example, desc]) => ({
      type: type!,
      q: example!,
      score: [...words(`${type} ${desc}`)].filter((w) => goal.has(w)).length,
    }));
    const best = scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    return {
      primary: (best.length ? best : scored.slice(0, 1)).map(({ type, q }) => ({ type, q })),
      supporting: [],
      decision_recipe: {
        outcomes: ['act', 'wait'],
        rules: [
          { when: 'the primary rows support the goal', then: 'act' },
          { when: 'otherwise', then: 'wait' },
        ],
        caveats: ['Demo planner: keyword overlap with the catalog, not a language model.'],
      },
    };
  },
  /**
   * olympics: a forecast between 0.2 and 0.8 drawn from the question and the vendor's lean (a minimal instance would
   * claim certainty with p = 0), said to be a demo draw, not a reading of the data.
   */
  olympics_forecast: (call) => {
    const question = call.messages.map((m) => m.text).join('\n');
    const p = Math.round(Math.min(0.8, Math.max(0.2, 0.2 + 0.6 * unitOf(`${call.wire}|${question}`) + LEAN[call.wire])) * 100) / 100;
    return {
      p,
      rationale: `Demo model (no language model is configured): ${p} is a draw from the question and this vendor's lean, not a reading of the data.`,
    };
  },
  /** constitutional: the demo judge cannot read; it allows with a small p_harmful and says so (the rule stage still votes). */
  constitutional_judgement: (call) => ({
    verdict: 'allow',
    p_harmful: Math.round((0.02 + 0.1 * unitOf(`${call.wire}|${call.messages.map((m) => m.text).join('')}`)) * 1000) / 1000,
    patterns: [],
    rationale: 'Demo model (no language model is configured): it does not judge the text; the rule stage decides.',
  }),
  /** portfolio ask: the concentration figures of the quoted insights, cited by their receipt. */
  portfolio_answer: (call) => {
    const insights = quotedData(call).find((d) => d.label === 'portfolio insights')?.value;
    const top = (insights?.concentration as Json | undefined)?.top_holding as Json | undefined;
    if (!insights || !top)
      return { answerable: false, answer: 'The demo model found no portfolio insights to answer from.', citations: [] };
    const claim = `Your largest holding is ${String(top.symbol)} at ${String(top.share_pct)}% of market value.`;
    return {
      answerable: true,
      answer: `${claim} (Demo model: it reads the computed insights and does not reason about your question.)`,
      citations: [{ claim, source_type: 'portfolio-insights', receipt_id: String(insights.receipt_id) }],
    };
  },
};

/** The smallest value of a JSON Schema: required properties only, the first enum value, bounds respected. */
export function minimalInstance(schema: Json): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options?.length) return minimalInstance(options[0]!);
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[])[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((k) => [k, minimalInstance(properties[k] ?? {})]));
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => minimalInstance((schema.items ?? {}) as Json));
    case 'number':
    case 'integer':
      return Number(schema.minimum ?? schema.exclusiveMinimum ?? 0);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'demo'.padEnd(Number(schema.minLength ?? 0), '.');
  }
}
