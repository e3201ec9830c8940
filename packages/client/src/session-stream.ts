import { SvcNetworkError } from './errors.js';
import { readSse } from './sse.js';
import { sleep } from './transport.js';

/** One message of a session stream: `kind` is the posted event's kind, or `state` / `end` for state messages. */
export interface SessionStreamMessage {
  id?: number;
  kind: string;
  data: unknown;
}

export interface WatchOptions {
  signal?: AbortSignal;
  /** Ask for state messages too (`?state=1`): the session on connect, watcher counts, the end. */
  state?: boolean;
}

/** What the stream needs of the client: its fetch, URL builder, common headers, retry count and error for a refused answer. */
export interface StreamTransport {
  fetch: typeof fetch;
  url: (path: string, query?: Record<string, unknown>) => string;
  /** Sent with the stream request too (the API key). */
  headers: Record<string, string>;
  retries: number;
  refusal: (response: Response) => Promise<Error>;
}

/**
 * Follows a session's events over SSE, reconnecting with `last_event_id` after a dropped
 * connection; ends when the service closes a finished session's stream (its 204 on reconnect) or,
 * with `state: true`, after the service's own `end` state message. Each message is one `data:`
 * JSON object: a posted event (`kind` is its kind) or, with `state: true`, a state message
 * (`kind` is `state`, or `end` for the session's end).
 */
export async function* watchSession(
  { fetch: doFetch, url, headers, retries, refusal }: StreamTransport,
  sessionId: string,
  { signal, state }: WatchOptions,
): AsyncGenerator<SessionStreamMessage> {
  let lastEventId: string | undefined;
  for (let failures = 0; !signal?.aborted;) {
    let response: Response;
    try {
      const query = { session_id: sessionId, last_event_id: lastEventId, state: state ? 1 : undefined };
      response = await doFetch(url('/api/agent-session/stream', query), { headers: { ...headers, accept: 'text/event-stream' }, signal });
    } catch (error) {
      if (signal?.aborted) return;
      if (++failures > retries) throw new SvcNetworkError(`session stream: ${(error as Error).message}`, { cause: error });
      await sleep(200 * 2 ** failures);
      continue;
    }
    if (response.status === 204) return;
    if (!response.ok || !response.body) throw await refusal(response);
    try {
      for await (const message of readSse(response.body)) {
        failures = 0;
        if (message.id !== undefined) lastEventId = message.id;
        const data = JSON.parse(message.data) as { kind?: string; state?: unknown };
        const kind = data.state === undefined ? (data.kind ?? 'message') : data.kind === 'end' ? 'end' : 'state';
        yield { ...(message.id === undefined ? {} : { id: Number(message.id) }), kind, data };
        if (kind === 'end') return;
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (++failures > retries) throw new SvcNetworkError(`session stream: ${(error as Error).message}`, { cause: error });
    }
  }
}
