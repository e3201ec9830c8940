import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiError } from '../core/errors.js';
import type { SourceDescriptor } from '../sources/define.js';
import type { HostHttp } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import type { DecisionRecipe, Step } from './goals.js';

/** The fallback planner: a chat model picks fetches from the catalog for a goal no rule matches. */
const MAX_STEPS = 3;

const ChatCompletion = Type.Object({
  choices: Type.Array(Type.Object({ message: Type.Object({ content: Type.Union([Type.String(), Type.Null()]) }) }), { minItems: 1 }),
});
type ChatCompletion = Type.Static<typeof ChatCompletion>;

const StepSchema = Type.Object({ type: Type.String(), q: Type.String() });
const ModelPlan = Compile(
  Type.Object({
    primary: Type.Array(StepSchema),
    supporting: Type.Optional(Type.Array(StepSchema)),
    decision_recipe: Type.Object({
      outcomes: Type.Array(Type.String()),
      rules: Type.Array(Type.Object({ when: Type.String(), then: Type.String() })),
      caveats: Type.Optional(Type.Array(Type.String())),
    }),
  }),
);

export interface ModelPlan {
  primary: Step[];
  supporting: Step[];
  decision_recipe: DecisionRecipe;
}

export function systemPrompt(descriptors: SourceDescriptor[]): string {
  const catalog = descriptors.map((d) => `- ${d.type}: q = ${d.qShape || '(empty)'}, e.g. "${d.example}"; ${d.desc}`).join('\n');
  return [
    'You plan data fetches for an autonomous agent. Given its goal, choose at most 3 primary and 3 supporting fetches from this catalog, with q in exactly the shape shown:',
    catalog,
    'Answer with one JSON object and nothing else: {"primary":[{"type":"…","q":"…"}],"supporting":[…],"decision_recipe":{"outcomes":["…"],"rules":[{"when":"…","then":"…"}],"caveats":["…"]}}.',
    'Rules refer to the fields of the fetched rows. Do not invent types.',
  ].join('\n');
}

/**
 * The model's answer → a plan of valid steps only: unknown types and malformed q are dropped
 * (`isValid`), so a model mistake costs a fetch, never a 500.
 */
export function readModelPlan(raw: ChatCompletion, isValid: (step: Step) => boolean): ModelPlan {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.choices[0]!.message.content ?? '');
  } catch {
    throw new UpstreamError('upstream_bad_response', 'the language model did not answer with JSON');
  }
  if (!ModelPlan.Check(parsed)) throw new UpstreamError('upstream_bad_response', 'the language model answered in an unexpected shape');
  const valid = (steps: Step[] = []) => steps.map(({ type, q }) => ({ type, q })).filter(isValid).slice(0, MAX_STEPS);
  const primary = valid(parsed.primary);
  if (primary.length === 0) throw new UpstreamError('upstream_bad_response', 'the language model proposed no valid fetch');
  const { outcomes, rules, caveats = [] } = parsed.decision_recipe;
  return { primary, supporting: valid(parsed.supporting), decision_recipe: { outcomes, rules, caveats } };
}

export async function planWithModel(goal: string, o: { http: HostHttp; model: string; descriptors: SourceDescriptor[]; isValid: (step: Step) => boolean; deadline: number }): Promise<ModelPlan> {
  const request = {
    model: o.model,
    temperature: 0,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: systemPrompt(o.descriptors) },
      { role: 'user', content: goal },
    ],
  };
  try {
    const raw = await o.http.json<ChatCompletion>('/v1/chat/completions', ChatCompletion, {
      method: 'POST',
      body: JSON.stringify(request),
      headers: { 'content-type': 'application/json' },
      deadline: o.deadline,
    });
    return readModelPlan(raw, o.isValid);
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    throw new ApiError('upstream_unavailable', `no built-in rule matches this goal and the language-model planner failed: ${e.message}`, { field: 'goal', reason: e.reason });
  }
}
