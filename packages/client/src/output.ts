/** Human output for the CLI: aligned tables and a spinner on stderr. */

/** Renders rows as a table whose columns are the given keys, widths fitted to the content (cells cut at 60). */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cell = (v: unknown) => {
    const text = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  };
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Key/value lines for one object. */
export function record(value: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(value).map((k) => k.length));
  return Object.entries(value)
    .map(([k, v]) => `${k.padEnd(width)}  ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Runs `task` with a spinner on stderr when stderr is a terminal (never in pipes or logs). */
export async function withSpinner<T>(label: string, task: () => Promise<T>, stream: NodeJS.WriteStream = process.stderr): Promise<T> {
  if (!stream.isTTY) return task();
  let frame = 0;
  const timer = setInterval(() => stream.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}`), 80);
  try {
    return await task();
  } finally {
    clearInterval(timer);
    stream.write('\r\x1b[K');
  }
}
