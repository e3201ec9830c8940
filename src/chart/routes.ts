import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import { modelsFor } from '../models/index.js';
import { createArena } from '../arena/routes.js';
import { ASSETS, type Asset } from '../arena/paper-trader.js';
import { IMAGE_LIMITS, IMAGE_RULES, cleanImage, tooLarge } from './image.js';
import { CONSENSUS_RULE, WEIGHT_RULE } from './consensus.js';
import { ChartService, RUBRIC } from './service.js';
import { ChartTrader, TRADE_RULE } from './trade.js';
import { arenaAsset } from '../arena/assets.js';
import { AnalyzeJsonBody, AnalyzeMultipartBody, AnalyzeResponse, type AnalyzeOptions } from './schemas.js';

const WATCH_EVERY_MS = 15 * 60_000;
/** Base64 of a 5 MB image is 6.7 MB; anything up to this reaches the image check and gets its 413 image_too_large. */
const JSON_BODY_LIMIT = 10 * 1024 * 1024;
const FORM_FIELDS = ['asset', 'timeframe', 'paper_trade'] as const;
/** A form holds one image and three fields of at most 100 bytes: past this many bytes its image is too large (413), and reading stops. */
const FORM_BODY_LIMIT = IMAGE_LIMITS.maxBytes + 64 * 1024;
const BODY_TYPES = ['application/json', 'multipart/form-data'];
/** Files read from multipart forms, by request: the form's other fields become the body the schema checks. */
const formFiles = new WeakMap<FastifyRequest, Buffer>();

type Body = { image_b64?: string; asset?: string; timeframe?: string; paper_trade?: boolean | 'true' | 'false' };

/** The options of either body (already checked by its schema) plus the rules a schema cannot state. */
function options(body: Body): AnalyzeOptions & { tradeAsset?: Asset } {
  const { asset, timeframe } = body;
  const paperTrade = body.paper_trade === true || body.paper_trade === 'true';
  if (!paperTrade) return { asset, timeframe, paper_trade: false };
  if (!asset) throw new ApiError('validation_failed', 'paper_trade needs asset', { field: 'asset', rule: 'required_with_paper_trade' });
  return { asset, timeframe, paper_trade: true, tradeAsset: arenaAsset(asset) };
}

function decodeBase64(b64: string): Buffer {
  const bare = b64.replace(/^data:[\w/+.-]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(bare))
    throw new ApiError('validation_failed', 'image_b64 is not base64', { field: 'image_b64', rule: 'base64' });
  return Buffer.from(bare, 'base64');
}

const formRule = (rule: string) => () =>
  new ApiError('validation_failed', `the form takes one file (image) and the fields ${FORM_FIELDS.join(', ')}`, { field: '(form)', rule });
const MULTIPART_LIMITS: Record<string, () => ApiError> = {
  FST_REQ_FILE_TOO_LARGE: () => tooLarge(),
  FST_FILES_LIMIT: formRule('one_file'),
  FST_FIELDS_LIMIT: formRule('too_many_parts'),
  FST_PARTS_LIMIT: formRule('too_many_parts'),
  FST_PROTO_VIOLATION: formRule('field_name'),
};

/**
 * Before any byte of the body is read: a body is required and must be JSON or a form (415
 * otherwise, so no other parser hands the handler an unvalidated body), and a form that declares
 * more than FORM_BODY_LIMIT bytes is refused at once.
 */
async function checkUpload(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
  if (!type)
    throw new ApiError('validation_failed', 'the body is required: the image as multipart/form-data or JSON {image_b64}', {
      field: '(body)',
      rule: 'required',
      accepted: BODY_TYPES,
    });
  if (!BODY_TYPES.includes(type))
    throw new ApiError('unsupported_media_type', `content type ${type} is not accepted here`, { accepted: BODY_TYPES });
  if (type === 'multipart/form-data' && Number(request.headers['content-length'] ?? 0) > FORM_BODY_LIMIT) throw tooLarge();
}

/** Counts the form's bytes as they arrive; past the limit the parser is stopped with a 413 and nothing more is read. */
function limitForm(request: FastifyRequest): void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= FORM_BODY_LIMIT) return;
    request.raw.off('data', count);
    request.raw.pause();
    // @fastify/multipart ends its parts() iteration with the error the request emits.
    request.raw.emit('error', tooLarge());
  };
  request.raw.on('data', count);
}

/** Reads the form (the file under the size limit) before validation, so its fields meet the same schema checks as JSON. */
async function readForm(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, unknown> = {};
  limitForm(request);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') fields[part.fieldname] = part.value;
      else if (part.fieldname !== 'image')
        throw new ApiError('validation_failed', `the file goes in the field image, not ${part.fieldname}`, {
          field: part.fieldname,
          rule: 'file_field',
        });
      else formFiles.set(request, await part.toBuffer());
    }
  } catch (e) {
    // The rest of the form may still be on its way: the error answer closes the connection rather than read it.
    if (e instanceof ApiError) throw e;
    const mapped = MULTIPART_LIMITS[(e as { code?: string }).code ?? ''];
    // Anything else here is the parser rejecting the form (no boundary, a truncated part, …).
    throw mapped
      ? mapped()
      : new ApiError('bad_request', `the multipart form does not parse: ${String((e as Error).message).slice(0, 200)}`, {
          field: '(form)',
          rule: 'multipart',
        });
  }
  if (!formFiles.has(request))
    throw new ApiError('validation_failed', 'the form needs a file in the field image', { field: 'image', rule: 'required' });
  request.body = { ...fields, image: '(file)' };
}

export const chartRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const models = modelsFor(deps);
    const calib = deps.calibration;
    const trader = new ChartTrader({
      arena: createArena(deps),
      calib,
      binance: deps.upstream.host('binance'),
      clock: deps.clock,
      publicUrl: deps.config.publicUrl,
    });
    const charts = new ChartService({ models, calib, trader, demo: deps.config.models.some((spec) => spec.fake) });
    ctx.jobs.push({ name: 'chart-trades', everyMs: WATCH_EVERY_MS, run: async () => void (await trader.watch()) });
    await app.register(multipart, {
      limits: { fileSize: IMAGE_LIMITS.maxBytes, files: 1, fields: FORM_FIELDS.length, parts: FORM_FIELDS.length + 1, fieldSize: 100 },
    });

    app.post(
      '/api/v1/chart/analyze',
      {
        bodyLimit: JSON_BODY_LIMIT,
        config: { signed: true },
        onRequest: checkUpload,
        preValidation: readForm,
        schema: {
          operationId: 'postChartAnalyze',
          tags: ['chart'],
          summary: 'Four vision models read a chart image side by side; a calibrated consensus, optionally a paper trade',
          description:
            'Send the image as multipart/form-data (field image, optional asset, timeframe, paper_trade) or as JSON {image_b64, …}. ' +
            `A missing body is a 400, any other content type a 415; a form stops being read at ${FORM_BODY_LIMIT} bytes (413 image_too_large, connection closed). ` +
            `${IMAGE_RULES} The same image and rubric go to the four models of the vision-panel role (one per vendor, SVC_MODELS), each answering the chart_verdict ` +
            "schema {trend, signal, confidence, horizon, levels{support[], resistance[]}, patterns[], rationale}; an answer that fails the schema after one repair is that model's " +
            `failure (ok false, reason invalid_output). Weights: ${WEIGHT_RULE} Consensus: ${CONSENSUS_RULE} image_sha256 is the SHA-256 of the bytes as uploaded. ` +
            `paper_trade true (with asset ${ASSETS.join(', ')}): ${TRADE_RULE} In the demo (SVC_DEMO without SVC_MODELS) the four verdicts come from the built-in vendor fakes and demo is true. ` +
            "No vision model configured: 503 model_unavailable. Public (rate-limited); the trades and claims it records belong to svc's reserved arena: and chart: agents. " +
            'Signed; for a form upload the request_hash covers the text fields (the file as "image": "(file)"), and the image is bound by image_sha256 in the signed body. ' +
            `The rubric: ${RUBRIC.replace(/\n/g, ' ')}`,
          body: {
            content: { 'application/json': { schema: AnalyzeJsonBody }, 'multipart/form-data': { schema: AnalyzeMultipartBody } },
          } as never,
          response: { 200: AnalyzeResponse, ...errorResponses(400, 409, 413, 415, 422, 503) },
        },
      },
      async (request) => {
        const body = request.body as Body;
        const chosen = options(body);
        const image = await cleanImage(formFiles.get(request) ?? decodeBase64(body.image_b64 ?? ''));
        return charts.analyze(image, chosen);
      },
    );
  };
