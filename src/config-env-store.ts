import Type from 'typebox';

/** The variables of the database and Redis: part of EnvSchema (config-env.ts). */
export const STORE_ENV = {
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      expected: 'a URL starting with postgres:// or postgresql://',
      description: 'Postgres URL; default is embedded SQLite in SVC_DATA_DIR',
    }),
  ),
  SVC_DB_QUERY_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 10_000,
    description:
      'Postgres: a query the server has not answered within this time ends its connection (the request is answered 503 store_unavailable; a network black hole cannot hold requests or locks longer); migrations are exempt',
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      expected: 'a URL starting with redis:// or rediss://',
      description: 'Redis URL for the shared cache, bus and rate limits',
    }),
  ),
  SVC_REDIS_PREFIX: Type.String({
    default: 'svc:',
    pattern: '^[A-Za-z0-9_.:-]{1,64}$',
    expected: '1 to 64 letters, digits, or the characters _ . : -',
    description: 'prefix of every Redis key and channel, so two deployments can share one Redis',
  }),
  SVC_REDIS_TIMEOUT_MS: Type.Integer({
    minimum: 10,
    maximum: 10_000,
    default: 250,
    description: 'deadline of every Redis command; past it the command fails and the policy of its use applies (docs/operations.md)',
  }),
};
