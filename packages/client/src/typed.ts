import type { paths } from './openapi.js';

/**
 * Types for `client.request(method, path, …)`: every operation of the service's OpenAPI, its path
 * parameters, query, body and answer, read from the generated `paths`.
 */

export type HttpMethod = 'get' | 'post' | 'delete';

/** The paths that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];

type Operation<P extends keyof paths, M extends HttpMethod> = paths[P] extends { [K in M]: infer O } ? O : never;

type ParameterOf<O, K extends 'query' | 'path'> = O extends { parameters: { [k in K]?: infer V } } ? NonNullable<V> : never;

/** A JSON body is typed; a form upload (chart analysis) is a FormData. */
type BodyType<O> = O extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? never
    : NonNullable<R> extends { content: infer C }
      ? 'application/json' extends keyof C
        ? C['application/json']
        : FormData
      : never
  : never;

/** `{ key?: never }` when the operation has none, optional when every field is, else required. */
type Field<K extends string, V, Optional extends boolean = false> = [V] extends [never]
  ? { [k in K]?: never }
  : Optional extends true
    ? { [k in K]?: V }
    : object extends V
      ? { [k in K]?: V }
      : { [k in K]: V };

type BodyOptional<O> = O extends { requestBody?: infer R } ? (undefined extends R ? true : false) : true;

/** What one call may set besides the operation's own parameters. */
export interface CallOptions {
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer` (agent key, session token, admin key). */
  bearer?: string;
  /** Pay a 402 with the wallet under the spend caps (default true). */
  pay?: boolean;
  /** Send the client's pass first on this call (default false: the pass is for paid routes). */
  pass?: boolean;
  /** This call's timeout in milliseconds, instead of the client's. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type RequestOptions<P extends keyof paths, M extends HttpMethod> = Field<'query', ParameterOf<Operation<P, M>, 'query'>> &
  Field<'params', ParameterOf<Operation<P, M>, 'path'>> &
  Field<'body', BodyType<Operation<P, M>>, BodyOptional<Operation<P, M>>> &
  CallOptions;

type SuccessOf<O> = O extends { responses: infer R } ? R[Extract<keyof R, 200 | 201 | 202>] : never;

/** The JSON of the success answer; text routes (pages, scripts) answer a string. */
export type DataOf<P extends keyof paths, M extends HttpMethod> =
  SuccessOf<Operation<P, M>> extends { content: infer C } ? ('application/json' extends keyof C ? C['application/json'] : string) : unknown;

/** Fills `{name}` segments of a path template, each value percent-encoded. */
export function fillPath(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new TypeError(`path parameter ${name} is missing for ${template}`);
    return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
  });
}
