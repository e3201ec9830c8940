/**
 * LOG_FORMAT=pretty: pino's JSON lines rewritten as one readable line each, for a terminal during development —
 * `12:04:31.207 INFO  request completed  reqId=… res.statusCode=200 responseTime=4.2` — with an error's stack on the
 * lines below. Synchronous and in-process (no transport worker), so a line is never lost at exit.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, shown in the line's head or not at all. */
const HEAD = new Set(['time', 'level', 'msg', 'pid', 'hostname']);

export interface LogSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

const scalar = (value: unknown): string => {
  if (typeof value === 'string') return /^[^\s"]+$/.test(value) ? value : JSON.stringify(value);
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
};

/** `key=value` pairs, nested objects flattened one level (`req.method=GET`); deeper values stay JSON. */
function fields(entry: Record<string, unknown>): string[] {
  return Object.entries(entry).flatMap(([key, value]) => {
    if (HEAD.has(key) || value === undefined) return [];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${key}=${scalar(value)}`];
    return Object.entries(value).map(([inner, v]) => `${key}.${inner}=${scalar(v)}`);
  });
}

export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = Number(entry.level);
  const name = (LEVELS[level] ?? String(entry.level)).padEnd(5);
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const { err, ...rest } = entry;
  const stack = typeof (err as { stack?: unknown } | undefined)?.stack === 'string' ? (err as { stack: string }).stack : undefined;
  const extra = fields(stack ? { ...rest, err: { type: (err as { type?: unknown }).type } } : entry);
  const msg = typeof entry.msg === 'string' ? entry.msg : entry.msg === undefined ? '' : scalar(entry.msg);
  const head = `${time} ${colour ? `\x1b[${COLOURS[level] ?? '0'}m${name}\x1b[0m` : name} ${msg}`;
  const body = extra.length ? `${head}  ${extra.join(' ')}` : head;
  return `${body}\n${stack ? `${stack.replace(/^/gm, '    ')}\n` : ''}`;
}

/** A pino destination writing pretty lines to `out` (coloured when it is a terminal). */
export const prettyLogStream = (out: LogSink) => ({
  write: (line: string) => {
    out.write(prettyLine(line.trimEnd(), out.isTTY === true));
  },
});
