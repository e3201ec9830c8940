import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import type { RouteApp } from '../core/route-app.js';
import { ApiError } from '../core/errors.js';
import { AnswerPages, MaxTokensParam } from '../data/answer-pages.js';
import Type from 'typebox';
import { errorResponses } from '../core/schemas.js';
import { AgentScanner, SURFACES } from './agent-scan.js';
import { ToolAuditor } from './audit.js';
import { EXPLOIT_DOC, ExploitEstimator } from './exploit.js';
import { fetchFailure, fetchJson, publicUrl } from './fetch-json.js';
import { LookalikeIndex } from './lookalike.js';
import {
  AgentScanBody,
  AgentScanResponse,
  ExploitBody,
  ExploitResponse,
  ToolAuditBody,
  ToolAuditResponse,
  VerifyBody,
  VerifyResponse,
} from './schemas.js';
import { INSTRUCTION_RULES, WELL_KNOWN_TOOLS } from './tool-rules.js';
import { VERDICT_DOC } from './verdict.js';
import { ADDRESS_UNKNOWN, ShieldVerifier } from './verify.js';
import { URL_UNKNOWN } from './url-checks.js';

const TAGS = ['shield'];
const FETCH_DEADLINE_MS = 8000;

const AUDIT_DOC =
  `Findings per tool (severity low|medium|high|critical): hidden instructions in descriptions and parameter texts (${INSTRUCTION_RULES.map((r) => `${r.id} ${r.severity}`).join(', ')}), ` +
  'invisible_unicode (tag characters critical, with the hidden text decoded; zero-width, bidi and BOM high), confusable_name (non-ASCII letters in a tool name, high), ' +
  `shadows_known_tool (the name of a well-known tool: medium; a lookalike of one: high; list: ${WELL_KNOWN_TOOLS.join(', ')}), broad_capability (shell or payments high, ` +
  'filesystem writes or arbitrary network medium, unless readOnlyHint is true or the description asks for confirmation), secret_field (input fields named like passwords, ' +
  'tokens, API keys: high; private keys, mnemonics, seed phrases: critical). manifest_sha256 is the hex SHA-256 of the manifest’s RFC 8785 canonical JSON. ';

/** Shield: verdicts on what an agent is about to touch, then audits of the tools it is offered (registered in that order). */
export const shieldRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    addVerdictRoutes(app, ctx);
    addToolAuditRoutes(app, ctx);
  };

/** Verdicts on a contract, token, address, URL or domain: is it safe now, and how likely an exploit within 7 days. */
function addVerdictRoutes(app: RouteApp, ctx: AppContext): void {
  const { deps } = ctx;
  const names = new LookalikeIndex(ctx.entities.resolver.entities);
  const verifier = new ShieldVerifier({ runner: deps.sources, names, clock: deps.clock });
  const calib = deps.calibration;
  const estimator = new ExploitEstimator({ runner: deps.sources, calib, cache: deps.cache, clock: deps.clock });
  app.post(
    '/api/v1/shield/verify',
    {
      config: { signed: true },
      schema: {
        tags: TAGS,
        summary: 'Is this safe? A verdict on a contract, token, address, URL or domain before acting on it',
        description:
          'Public. Checks by kind: token → token-risk and contract-risk (honeypot and cannot_sell_all are the upstream’s sell simulation; owner privileges, proxy upgradability, ' +
          'taxes, unverified source) plus impersonation of a known token of the entity graph (same symbol or name, another contract); contract → contract-risk; contract, token ' +
          `and address → address label from the entity graph; address → ${ADDRESS_UNKNOWN.join(' and ')} are always unknown (no data type covers them); url and domain → scheme, ` +
          `credentials in the URL, IP hosts, punycode, lookalike names of entities in the entity graph (homoglyphs, one typo, the name wrapped in other words); ${URL_UNKNOWN.join(' and ')} ` +
          'are always unknown (no data type covers them). action approve with amount ≥ 2^255 → unlimited_approval (high); without amount, approval-amount is unknown. ' +
          `A check that could not run is listed in unknown. ${VERDICT_DOC} Signed.`,
        body: VerifyBody,
        response: { 200: VerifyResponse, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const result = await verifier.verify(request.body);
      reply.provenance = { asOf: result.as_of, sources: [...new Set(result.findings.map((f) => f.source).concat(result.checked))] };
      return result;
    },
  );

  app.post(
    '/api/v1/shield/exploit-likelihood',
    {
      config: { signed: true },
      schema: {
        tags: TAGS,
        summary: 'Probability that a contract or token shows an exploit signal within 7 days, with its factors and weights',
        description:
          `Public. ${EXPLOIT_DOC} No estimate without data: 422 address_unknown when both types' upstreams know nothing of the address, ` +
          '503 upstream_unavailable when svc could not reach them. Signed.',
        body: ExploitBody,
        response: { 200: ExploitResponse, ...errorResponses(400, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const result = await estimator.estimate(request.body.chain, request.body.address);
      reply.provenance = { asOf: result.as_of, sources: [...new Set(result.factors.map((f) => f.source))] };
      return result;
    },
  );
}

/** Audits of the tools an agent is offered: a tool list or OpenAPI document, or another agent's whole public surface. */
function addToolAuditRoutes(app: RouteApp, { deps }: AppContext): void {
  const auditor = new ToolAuditor({ repo: deps.repos.shield, clock: deps.clock });
  const scanner = new AgentScanner({ config: deps.config, clock: deps.clock });
  // An audit of a 200-tool server is ~15,000 o200k tokens: with max_tokens it comes in pages, as a bundle does.
  const answerPages = new AnswerPages(deps.repos.answerPages, deps.clock);
  const inPages = async <T extends { as_of: number }>(answer: T, maxTokens: number | undefined) =>
    maxTokens ? answerPages.first(answer, maxTokens, { asOf: answer.as_of }) : answer;
  const pagesDoc =
    '`max_tokens` asks for the answer in pages (`_page`; the rest free at GET /api/v1/answer-page for 24 h), the tools list cut into runs. ';
  app.post(
    '/api/v1/shield/tool-audit',
    {
      config: { signed: true },
      schema: {
        tags: TAGS,
        summary: 'Audit an MCP tool list or an OpenAPI document for poisoned tools',
        description:
          'Public. Send exactly one of manifest (an MCP tools/list result or an OpenAPI document) or url (fetched through the SSRF-guarded client: public addresses on ' +
          `SVC_FETCH_ALLOWED_PORTS only, 2 MB, ${FETCH_DEADLINE_MS / 1000} s). ${AUDIT_DOC}For a url, svc keeps each audit’s hashes: changes lists the tools added, removed and ` +
          'changed since the last audit of the same URL, and each changed tool gets definition_changed (high), the mark of a rug pull. A refused address is a 400; ' +
          'a URL that cannot be read (404 or another error status, no such host, timeout, not a JSON object) a 422 url_unreadable with details.reason. ' +
          `${pagesDoc}Signed.`,
        body: ToolAuditBody,
        querystring: Type.Object({ max_tokens: MaxTokensParam }),
        response: { 200: ToolAuditResponse, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) => {
      const { manifest, url } = request.body;
      if ((manifest === undefined) === (url === undefined))
        throw new ApiError('validation_failed', 'send exactly one of manifest or url', { field: manifest ? 'url' : 'manifest' });
      if (manifest) return inPages(await auditor.audit(manifest, null), request.query.max_tokens);
      const target = publicUrl(url!, 'url').href;
      const page = await fetchJson(target, deps.config, Date.now() + FETCH_DEADLINE_MS).catch((e: unknown) => fetchFailure(e, 'url'));
      return inPages(await auditor.audit(page.json, target), request.query.max_tokens);
    },
  );

  app.post(
    '/api/v1/shield/agent-scan',
    {
      config: { signed: true },
      schema: {
        tags: TAGS,
        summary: 'Scan an agent’s public surface: agent card, well-known descriptors, OpenAPI',
        description:
          `Public. Reads ${SURFACES.join(', ')} at the URL’s origin through the SSRF-guarded client (public addresses only). Reports each surface (found, absent on 404/410, ` +
          'unreadable otherwise), the tools exposed (agent-card skills, MCP descriptor tools, OpenAPI operations), unauthenticated_writes (POST/PUT/PATCH/DELETE operations with ' +
          'no security requirement, or an empty one), missing rate-limit headers (no RateLimit-*, X-RateLimit-* or Retry-After on any surface found), and audits every tool as ' +
          `tool-audit does. ${AUDIT_DOC}${pagesDoc}Signed.`,
        body: AgentScanBody,
        querystring: Type.Object({ max_tokens: MaxTokensParam }),
        response: { 200: AgentScanResponse, ...errorResponses(400, 429) },
      },
    },
    async (request) => inPages(await scanner.scan(publicUrl(request.body.url, 'url')), request.query.max_tokens),
  );
}
