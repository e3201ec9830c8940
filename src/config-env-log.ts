import Type from 'typebox';
import { Flag } from './config-env-stdio.js';

/** The variables of logs and traces: part of EnvSchema (config-env.ts). */
export const LOG_ENV = {
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description: 'OTLP/HTTP collector base URL: requests and their upstream calls are exported as traces to <url>/v1/traces; unset = off',
    }),
  ),
  OTEL_SERVICE_NAME: Type.String({ default: 'svc', minLength: 1, description: 'service.name of the exported traces' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    {
      default: 'info',
      description: 'pino log level',
    },
  ),
  SVC_LOG_HEALTH_PROBES: Flag(
    '1 = log requests to /healthz, /readyz and /metrics too (quiet by default: a balancer probes every few seconds)',
  ),
  LOG_FORMAT: Type.Union([Type.Literal('json'), Type.Literal('pretty')], {
    default: 'json',
    description: 'json: one JSON object per line, for log collectors; pretty: one readable line per event, for a terminal',
  }),
};
