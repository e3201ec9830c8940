import Type from 'typebox';

/** The variables of Plaid (portfolio account linking, optional): part of EnvSchema (config-env.ts). */
export const PLAID_ENV = {
  PLAID_CLIENT_ID: Type.Optional(
    Type.String({ minLength: 1, description: 'Plaid client id (portfolio account linking); needs PLAID_SECRET and SVC_SECRET_KEY' }),
  ),
  PLAID_SECRET: Type.Optional(Type.String({ minLength: 1, description: 'Plaid secret for PLAID_ENV' })),
  PLAID_ENV: Type.Union([Type.Literal('sandbox'), Type.Literal('production')], { default: 'sandbox', description: 'Plaid environment' }),
  PLAID_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description: 'Plaid API base URL; overrides PLAID_ENV (tests point it at the loopback fake)',
    }),
  ),
};
