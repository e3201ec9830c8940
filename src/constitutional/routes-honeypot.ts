import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import { CANARY_RULE } from './honeypot.js';
import { HoneypotBody, HoneypotResponse, HoneypotStats, SelfJailbreakReport } from './schemas.js';
import type { ConstitutionalService } from './service.js';

const tags = ['constitutional'];
const signed = { signed: true };

/** The honeypot, its public aggregates, and the self-jailbreak job's last report. */
export const honeypotRoutes =
  (service: ConstitutionalService): FastifyPluginAsync =>
  async (app) => {
    app.post(
      '/api/v1/constitutional/honeypot',
      {
        config: signed,
        schema: {
          tags,
          summary: 'Honeypot: looks like an unguarded assistant; answers nothing real',
          description:
            'No model is called and nothing secret is returned: the message is classified, recorded as its SHA-256 with the ' +
            'matched patterns, and answered with a canned reply. ' +
            `${CANARY_RULE} Public by design.`,
          body: HoneypotBody,
          response: { 200: HoneypotResponse, ...errorResponses(400, 413) },
        },
      },
      async (request) => service.honeypot(request.body.message),
    );

    app.get(
      '/api/v1/constitutional/honeypot/stats',
      {
        config: signed,
        schema: {
          tags,
          summary: 'Honeypot aggregates: attempts, distinct texts, would-be canary leaks, patterns',
          description: 'Public.',
          response: { 200: HoneypotStats },
        },
      },
      async () => service.honeypotStats(),
    );

    app.get(
      '/api/v1/constitutional/self-jailbreak',
      {
        config: signed,
        schema: {
          tags,
          summary: 'Last self-jailbreak run: detection rate per mutation family',
          description:
            'A daily job mutates the plain attacks of the labelled evaluation set with each encoding and wrapper family (base64, ' +
            'hex, ROT13, homoglyphs, zero-width, payload splitting, role-play and quote wrappers, …) ' +
            'and classifies them again; `identity` is the unmutated baseline. 404 before the first run. Public.',
          response: { 200: SelfJailbreakReport, ...errorResponses(404) },
        },
      },
      async () => service.latestSelfJailbreak(),
    );
  };
