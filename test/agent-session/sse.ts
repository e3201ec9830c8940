/** A test SSE client over fetch: parses `id`, `event` and `data` of every message until closed. */
export interface SseMessage {
  id?: string;
  /** Only present when the server named the message (it never should). */
  event?: string;
  data: Record<string, unknown>;
}

export async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  let raw = '';
  let ended = false;
  const done = (async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of res.body) {
        const piece = decoder.decode(chunk, { stream: true });
        raw += piece;
        text += piece;
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const message: Partial<SseMessage> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) message.id = line.slice(4);
            if (line.startsWith('event: ')) message.event = line.slice(7);
            if (line.startsWith('data: ')) message.data = JSON.parse(line.slice(6));
          }
          if (message.data) messages.push(message as SseMessage);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  /** Messages with an id: what the agent posted (plus the final end, for a `state=1` stream). */
  const events = () => messages.filter((m) => m.id !== undefined);
  /** The `state` of every state message (`state=1` streams only). */
  const states = () => messages.filter((m) => m.id === undefined).map((m) => m.data.state as Record<string, unknown>);
  const waitFor = async (predicate: () => boolean, ms = 5000) => {
    for (let waited = 0; waited < ms && !predicate(); waited += 20) await new Promise((r) => setTimeout(r, 20));
    if (!predicate()) throw new Error(`timed out; got ${JSON.stringify(messages.map((m) => [m.id, m.data]))}`);
  };
  return {
    res,
    messages,
    events,
    states,
    raw: () => raw,
    opened: () => raw.startsWith(': ok\n\n'),
    ended: () => ended,
    waitForEvents: async (n: number) => {
      await waitFor(() => events().length >= n);
      return events();
    },
    waitFor,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}
