import { Counter, Histogram, type Registry } from 'prom-client';
import type { ModelSpec } from '../config-models.js';

/** Prometheus counters of model calls, by vendor and model id (a handful of configured models: bounded labels). */
export class ModelMetrics {
  private readonly calls: Counter<'vendor' | 'model' | 'outcome'>;
  private readonly tokens: Counter<'vendor' | 'model' | 'direction'>;
  private readonly cost: Counter<'vendor' | 'model'>;
  private readonly failures: Counter<'vendor' | 'reason'>;
  private readonly latency: Histogram<'vendor' | 'model'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.calls = new Counter({
      name: 'svc_model_calls_total',
      help: 'Language-model calls by vendor, model and outcome',
      labelNames: ['vendor', 'model', 'outcome'],
      registers,
    });
    this.tokens = new Counter({
      name: 'svc_model_tokens_total',
      help: 'Language-model tokens by vendor, model and direction (input, output)',
      labelNames: ['vendor', 'model', 'direction'],
      registers,
    });
    this.cost = new Counter({
      name: 'svc_model_cost_usd_total',
      help: 'Language-model spend in USD by vendor and model, from the configured prices',
      labelNames: ['vendor', 'model'],
      registers,
    });
    this.failures = new Counter({
      name: 'svc_model_failures_total',
      help: 'Failed language-model calls by vendor and reason',
      labelNames: ['vendor', 'reason'],
      registers,
    });
    this.latency = new Histogram({
      name: 'svc_model_call_duration_seconds',
      help: 'Language-model call latency by vendor and model',
      labelNames: ['vendor', 'model'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
  }

  observe(spec: ModelSpec, o: { outcome: string; input: number; output: number; cost: number; seconds: number }): void {
    const labels = { vendor: spec.vendor, model: spec.id };
    this.calls.inc({ ...labels, outcome: o.outcome });
    this.tokens.inc({ ...labels, direction: 'input' }, o.input);
    this.tokens.inc({ ...labels, direction: 'output' }, o.output);
    this.cost.inc(labels, o.cost);
    this.latency.observe(labels, o.seconds);
    if (o.outcome !== 'ok') this.failures.inc({ vendor: spec.vendor, reason: o.outcome });
  }
}
