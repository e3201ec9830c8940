import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import type { Requirement } from './challenge.js';
import { passToken, presentedPayment } from './credentials.js';
import type { PaymentGate } from './gate-types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The method of the paid operation a probe route stands for: its 402 carries that operation's x402 discovery. */
    x402ProbeOf?: string;
  }
}

/** The requirement an unpaid probe is challenged with, or undefined where the request asks for nothing paid. */
export type ProbeRequirement = (request: FastifyRequest) => Requirement | undefined;

/**
 * x402 indexers (x402scan) probe each resource of `/.well-known/x402` with a bare GET, or a POST without a
 * body, and list only what answers 402. A paid POST route answers such an unpaid probe with its challenge
 * (priced as the route's cheapest call); a request with a body or presenting a payment is validated as
 * always, so a paid call's mistakes stay 400s naming the field.
 * Returns the POST route's `preValidation` hook; the GET is a route of its own, left out of the OpenAPI
 * document (it only ever answers 402, or the 405 a GET got before where nothing paid is asked for).
 */
export function answerBareProbes(app: FastifyInstance, path: string, payments: PaymentGate, requirementOf: ProbeRequirement) {
  app.get(path, { schema: { hide: true }, config: { x402ProbeOf: 'POST' } }, async (request, reply) => {
    const requirement = requirementOf(request);
    if (requirement) throw payments.challenge(request, requirement);
    reply.header('allow', 'POST');
    throw new ApiError('method_not_allowed', `${path} answers POST, not GET`, { allow: ['POST'] });
  });
  return async (request: FastifyRequest) => {
    const requirement = request.body == null && !presentsPayment(request) ? requirementOf(request) : undefined;
    if (requirement) throw payments.challenge(request, requirement);
  };
}

const presentsPayment = (request: FastifyRequest) => presentedPayment(request) !== undefined || passToken(request) !== undefined;
