export {
  createClient,
  type ClientOptions,
  type SvcClient,
  type PaymentRecord,
  type QueryOf,
  type BodyOf,
  type ResponseOf,
} from './client.js';
export { type SessionStreamMessage, type WatchOptions } from './session-stream.js';
export {
  verifyReceipt,
  responseHash,
  requestHash,
  jwkThumbprint,
  type Receipt,
  type ReceiptJwk,
  type ReceiptVerdict,
  type ReceiptChecks,
  type VerifyOptions,
  type ReceiptLogPosition,
} from './receipt.js';
export {
  SvcClientError,
  SvcHttpError,
  SvcNetworkError,
  SvcTimeoutError,
  PaymentRequiredError,
  SpendCapError,
  formatUsd,
} from './errors.js';
export {
  parseChallenge,
  signPayment,
  paymentSigner,
  type Challenge,
  type PaymentOption,
  type PaymentHeader,
  type PaymentSigner,
  type PaymentWallet,
} from './x402.js';
export type { paths } from './openapi.js';
export type { HttpMethod, PathsWith, RequestOptions, CallOptions, DataOf } from './typed.js';
export type { ResponseMeta, RateLimit, RequestDescription } from './meta.js';
export * from './tlog/index.js';
