import type { LanguageModel, ModelMessage } from 'ai';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiError } from '../core/errors.js';
import { importOnce } from '../core/import-once.js';
import type { Cache } from '../cache/index.js';
import type { Clock } from '../core/clock.js';
import type { ModelSpec, Role } from '../config-models.js';
import { languageModel } from './providers.js';
import { promptMessages, repairMessages, SYSTEM_DATA_RULE, type Quoted, type ImageInput } from './prompt.js';
import type { ModelMetrics } from './metrics.js';

/**
 * The model layer: features ask for a role and get a typed answer or `ok: false` with a reason;
 * they never call a vendor. No model for a role → 503 model_unavailable; the day's spend cap
 * reached → 503 model_budget_exhausted (both thrown, so every feature answers them alike).
 */
export interface ModelRequest {
  /** The feature's own instructions; fetched text never goes here. */
  instructions: string;
  /** The question or task, in the user's or the feature's words. */
  prompt: string;
  /** Fetched data: each item is sent as quoted data in its own message. */
  data?: Quoted[];
  images?: ImageInput[];
  /** Milliseconds for the whole call, the repair retry included; default SVC_MODEL_DEADLINE_MS. */
  deadlineMs?: number;
  maxOutputTokens?: number;
}

export interface StructuredRequest<S extends TSchema> extends ModelRequest {
  /** The JSON Schema the answer must satisfy (a TypeBox schema is one). */
  schema: S;
  /** Schema name vendors show the model (OpenAI json_schema name, Anthropic tool name hint). */
  name: string;
}

export type FailureReason = 'timeout' | 'vendor_error' | 'invalid_output';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface ModelRef {
  id: string;
  vendor: string;
  model: string;
}

export type ModelResult<T> =
  | { ok: true; value: T; model: ModelRef; usage: Usage; repaired: boolean }
  | { ok: false; reason: FailureReason; message: string; model: ModelRef; usage: Usage };

export interface ModelsOptions {
  specs: ModelSpec[];
  deadlineMs: number;
  /** USD a UTC day may spend across all models and instances; undefined = no cap. */
  budgetUsdPerDay?: number;
  cache: Cache;
  clock: Clock;
  metrics: ModelMetrics;
}

const PANEL_SIZE = 4;
const MAX_OUTPUT_TOKENS = 2048;

// The SDK prints its warnings to the console; svc logs through pino and reports failures as results.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const loadAi = importOnce(() => import('ai'));
type AiSdk = Awaited<ReturnType<typeof loadAi>>;

const MICRO = 1_000_000;
const DAY_MS = 86_400_000;

const refOf = (spec: ModelSpec): ModelRef => ({ id: spec.id, vendor: spec.vendor, model: spec.model });
const plain = (schema: TSchema) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

export class Models {
  private readonly instances = new Map<string, Promise<LanguageModel>>();

  constructor(private readonly o: ModelsOptions) {}

  /** Whether any model serves the role. */
  has(role: Role): boolean {
    return this.o.specs.some((s) => s.roles.includes(role));
  }

  /** The first model configured for the role. */
  pick(role: Role): ModelSpec {
    const spec = this.o.specs.find((s) => s.roles.includes(role));
    if (!spec) throw unavailable(role);
    return spec;
  }

  /** Up to four models for the role, one per vendor, in configuration order. */
  panel(role: 'panel' | 'vision-panel'): ModelSpec[] {
    const vendors = new Set<string>();
    const panel = this.o.specs
      .filter((s) => s.roles.includes(role) && !vendors.has(s.vendor) && vendors.add(s.vendor))
      .slice(0, PANEL_SIZE);
    if (panel.length === 0) throw unavailable(role);
    return panel;
  }

  async chat(spec: ModelSpec, request: ModelRequest): Promise<ModelResult<string>> {
    return this.call(spec, request, async ({ generateText }, model, messages, signal) => {
      const r = await generateText({
        model,
        system: system(request),
        messages,
        abortSignal: signal,
        maxRetries: 1,
        maxOutputTokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
      });
      return { value: r.text, usage: r.usage };
    });
  }

  /** An answer that satisfies `schema`; one repair retry with the validation errors, then `ok: false`. */
  async structured<S extends TSchema>(spec: ModelSpec, request: StructuredRequest<S>): Promise<ModelResult<Static<S>>> {
    const validator = Compile(request.schema);
    const providerOptions = { openai: { strictJsonSchema: false } };
    return this.call(spec, request, async ({ generateText, jsonSchema, NoObjectGeneratedError, Output }, model, messages, signal) => {
      const schema = jsonSchema<Static<S>>(plain(request.schema), {
        validate: (value) =>
          validator.Check(value)
            ? { success: true, value: value }
            : {
                success: false,
                error: new Error(
                  validator
                    .Errors(value)
                    .slice(0, 5)
                    .map((e) => `${e.instancePath || '/'} ${e.message}`)
                    .join('; '),
                ),
              },
      });
      const output = Output.object({ schema, name: request.name });
      const attempt = (msgs: ModelMessage[]) =>
        generateText({
          model,
          system: system(request),
          messages: msgs,
          output,
          abortSignal: signal,
          maxRetries: 1,
          maxOutputTokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
          providerOptions,
        });
      try {
        const r = await attempt(messages);
        return { value: r.output, usage: r.usage };
      } catch (e) {
        if (!NoObjectGeneratedError.isInstance(e)) throw e;
        const r = await attempt(repairMessages(messages, e.text ?? '', (e.cause as Error | undefined)?.message ?? e.message)).catch(
          (again: unknown) => {
            throw NoObjectGeneratedError.isInstance(again) ? new InvalidOutput(again.message, addUsage(e.usage, again.usage)) : again;
          },
        );
        return { value: r.output, usage: addUsage(e.usage, r.usage), repaired: true };
      }
    });
  }

  private async call<T>(
    spec: ModelSpec,
    request: ModelRequest,
    run: (
      ai: AiSdk,
      model: LanguageModel,
      messages: ModelMessage[],
      signal: AbortSignal,
    ) => Promise<{ value: T; usage: TokenUsage; repaired?: boolean }>,
  ): Promise<ModelResult<T>> {
    await this.checkBudget();
    const ai = await loadAi();
    const model = refOf(spec);
    const started = performance.now();
    try {
      const {
        value,
        usage,
        repaired = false,
      } = await run(ai, await this.instance(spec), promptMessages(request), AbortSignal.timeout(request.deadlineMs ?? this.o.deadlineMs));
      const accounted = await this.account(spec, usage, 'ok', started);
      return { ok: true, value, model, usage: accounted, repaired };
    } catch (e) {
      const failure = classify(e, ai);
      const accounted = await this.account(spec, e instanceof InvalidOutput ? e.usage : {}, failure.reason, started);
      return { ok: false, ...failure, model, usage: accounted };
    }
  }

  private instance(spec: ModelSpec): Promise<LanguageModel> {
    let model = this.instances.get(spec.id);
    if (!model) this.instances.set(spec.id, (model = languageModel(spec)));
    return model;
  }

  private spendKey(): string {
    return `models:spend:${new Date(this.o.clock.now()).toISOString().slice(0, 10)}`;
  }

  private async checkBudget(): Promise<void> {
    const cap = this.o.budgetUsdPerDay;
    if (cap === undefined) return;
    const spent = ((await this.o.cache.get<number>(this.spendKey())) ?? 0) / MICRO;
    if (spent >= cap)
      throw new ApiError('model_budget_exhausted', `the language models' daily budget of ${cap} USD is spent; try again after 00:00 UTC`, {
        budget_usd: cap,
        spent_usd: spent,
      });
  }

  private async account(spec: ModelSpec, usage: TokenUsage, outcome: FailureReason | 'ok', started: number): Promise<Usage> {
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    const cost = (input * spec.priceIn + output * spec.priceOut) / MICRO;
    this.o.metrics.observe(spec, { outcome, input, output, cost, seconds: (performance.now() - started) / 1000 });
    if (cost > 0) await this.o.cache.incr(this.spendKey(), 2 * DAY_MS, Math.ceil(cost * MICRO));
    return { input_tokens: input, output_tokens: output, cost_usd: cost };
  }
}

interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

class InvalidOutput extends Error {
  constructor(
    message: string,
    readonly usage: TokenUsage,
  ) {
    super(message);
  }
}

const addUsage = (a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage => ({
  inputTokens: (a?.inputTokens ?? 0) + (b?.inputTokens ?? 0),
  outputTokens: (a?.outputTokens ?? 0) + (b?.outputTokens ?? 0),
});

const system = (request: ModelRequest) => (request.data?.length ? `${request.instructions}\n\n${SYSTEM_DATA_RULE}` : request.instructions);

function unavailable(role: Role): ApiError {
  return new ApiError('model_unavailable', `no language model is configured for the ${role} role (SVC_MODELS)`, { role });
}

function classify(e: unknown, { APICallError }: AiSdk): { reason: FailureReason; message: string } {
  if (e instanceof InvalidOutput)
    return { reason: 'invalid_output', message: `the answer did not satisfy the schema after one repair: ${e.message}` };
  const name = (e as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return { reason: 'timeout', message: 'the model did not answer within the deadline' };
  if (APICallError.isInstance(e))
    return { reason: 'vendor_error', message: `the vendor answered ${e.statusCode ?? 'without a status'}: ${e.message.slice(0, 200)}` };
  const cause = (e as { cause?: Error } | undefined)?.cause;
  if (cause?.name === 'TimeoutError' || cause?.name === 'AbortError')
    return { reason: 'timeout', message: 'the model did not answer within the deadline' };
  return { reason: 'vendor_error', message: `the model call failed: ${String((e as Error | undefined)?.message ?? e).slice(0, 200)}` };
}
