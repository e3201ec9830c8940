/*
 * The upstream status page: /status. The server wraps this file in one function scope. It reads
 * /api/v1/status every 30 seconds and renders three tables; text from the API is only ever set with
 * textContent, and links only take http(s) URLs.
 */
const REFRESH_MS = 30000;
const STATE_WORDS = {
  working: 'working',
  degraded: 'degraded',
  failing: 'failing',
  needs_key: 'needs a key',
  not_called: 'not called yet',
};
const OUTLOOK_WORDS = {
  corroborated: 'corroborated',
  below_quorum: 'below quorum',
  unknown: 'not known yet',
};
// A source's state on the status page's chip palette (working / degraded / failing / needs a key / not called).
const SOURCE_CHIP = {
  answering: 'working',
  no_key: 'needs_key',
  region_blocked: 'failing',
  erroring: 'failing',
  not_called: 'not_called',
};
const OUTLOOK_CHIP = { corroborated: 'working', below_quorum: 'failing', unknown: 'not_called' };
const updatedEl = document.querySelector('.updated');
const summaryEl = document.querySelector('.summary');
const noticeEl = document.querySelector('.notice');
const windowEl = document.querySelector('.window');
const typesBody = document.querySelector('.types tbody');
const hostsBody = document.querySelector('.hosts tbody');
const corroborationBody = document.querySelector('.corroboration tbody');

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cell(label, className, ...children) {
  const td = el('td', className);
  td.dataset.label = label;
  td.append(...children);
  return td;
}

function stateChip(state, words) {
  const chip = el('span', 'state', words || state.replace('_', ' '));
  chip.dataset.state = state;
  return chip;
}

function link(url, text) {
  if (!/^https?:\/\//.test(url)) return document.createTextNode(text);
  const a = el('a', '', text);
  a.href = url;
  a.rel = 'noopener noreferrer';
  return a;
}

function ago(unixS, nowS) {
  if (unixS === null || unixS === undefined) return '–';
  const s = Math.max(0, nowS - unixS);
  if (s < 90) return s + ' s ago';
  if (s < 5400) return Math.round(s / 60) + ' min ago';
  if (s < 129600) return Math.round(s / 3600) + ' h ago';
  return Math.round(s / 86400) + ' d ago';
}

function termsNode(terms) {
  if (!terms) return el('span', 'muted', '–');
  const span = el('span', 'terms');
  span.dataset.commercial = terms.commercial;
  span.append(link(terms.url, terms.commercial));
  if (terms.note) span.title = terms.note;
  return span;
}

function keyNode(needsKey, signupUrl) {
  if (!needsKey) return el('span', 'muted', '–');
  const span = el('span', '', 'set ' + needsKey);
  if (signupUrl) span.append(' (', link(signupUrl, 'get a key'), ')');
  return span;
}

function typeRow(t) {
  const row = el('tr');
  row.append(
    cell('Type', 'name', t.type),
    cell('State', '', stateChip(t.state, STATE_WORDS[t.state])),
    cell('Answered by', '', t.source || '–'),
    cell('Why', 'reason', t.reason),
    cell('Key', '', keyNode(t.needs_key, t.signup_url)),
    cell('Commercial use', '', termsNode(t.terms)),
  );
  return row;
}

// The quote a rule without a fixed one prices in: each row's own (a listing's currency, a pair's symbol).
const ROW_QUOTE = 'the row’s quote';

// 120 → 2 min, 180000 → 50 h, 518400 → 6 d: the largest whole unit.
function duration(s) {
  if (s % 86400 === 0) return s / 86400 + ' d';
  if (s % 3600 === 0) return s / 3600 + ' h';
  if (s % 60 === 0) return s / 60 + ' min';
  return s + ' s';
}

function ruleText(rule) {
  const quote = ' in ' + (rule.quote || ROW_QUOTE);
  return rule.quorum + ' sources within ' + rule.outlier_bps + ' bps' + quote + ', stale after ' + duration(rule.stale_after_s);
}

function sourcesNode(c) {
  const counts = c.answering + ' of ' + c.sources.length + ' (' + c.answering_in_quote + ' in ' + (c.rule.quote || ROW_QUOTE) + ')';
  const list = el('ul', 'sources');
  for (const s of c.sources) {
    const item = el('li');
    item.append(el('span', 'source', s.source + ' '), stateChip(SOURCE_CHIP[s.state], s.state.replace('_', ' ')));
    if (s.reason) item.append(el('span', 'muted', ' ' + s.reason));
    list.append(item);
  }
  const wrap = el('div');
  wrap.append(el('p', 'count', counts), list);
  return wrap;
}

function corroborationRow(t) {
  const c = t.corroboration;
  const row = el('tr');
  row.dataset.type = t.type;
  row.append(
    cell('Type', 'name', t.type),
    cell('Rule', 'rule', ruleText(c.rule)),
    cell('Sources answering', 'answering', sourcesNode(c)),
    cell('Outlook', 'outlook', stateChip(OUTLOOK_CHIP[c.outlook], OUTLOOK_WORDS[c.outlook])),
    cell('Last answer', 'last', c.last_status ? c.last_status.replace('_', ' ') : '–'),
  );
  return row;
}

function hostKey(h) {
  if (h.key === 'none') return el('span', 'muted', 'none');
  const text = h.key + (h.key_configured ? ', set' : ', not set');
  if (h.key_configured || !h.signup_url) return el('span', '', text);
  const span = el('span', '', text + ' (');
  span.append(link(h.signup_url, 'get one'), ')');
  return span;
}

function hostRow(h, nowS) {
  const row = el('tr');
  const rate = h.success_rate === null ? '–' : Math.round(h.success_rate * 100) + ' %';
  const latency = h.latency_ms ? h.latency_ms.p50 + ' / ' + h.latency_ms.p95 + ' ms' : '–';
  const error = h.last_error ? h.last_error.message + ' · ' + ago(h.last_error.at, nowS) : '–';
  row.append(
    cell('Upstream', 'name', h.name),
    cell('Calls', 'num', String(h.calls)),
    cell('Success', 'num', rate),
    cell('Latency p50 / p95', 'num', latency),
    cell('Last success', '', ago(h.last_success_at, nowS)),
    cell('Last error', 'reason', error),
    cell('Circuit', '', stateChip(h.circuit)),
    cell('Key', '', hostKey(h)),
    cell('Commercial use', '', termsNode(h.terms)),
  );
  return row;
}

function render(report) {
  const nowS = report.generated_at;
  updatedEl.textContent =
    'Updated ' +
    new Date(nowS * 1000).toLocaleTimeString() +
    ' · ' +
    report.instances +
    (report.instances === 1 ? ' instance' : ' instances');
  summaryEl.replaceChildren(
    ...Object.entries(report.summary).map(([state, n]) => {
      const item = el('li');
      item.append(stateChip(state, n + ' ' + STATE_WORDS[state]));
      return item;
    }),
  );
  windowEl.textContent = 'Calls, success rate and latency over the last ' + Math.round(report.window_s / 60) + ' minutes.';
  typesBody.replaceChildren(...report.types.map(typeRow));
  corroborationBody.replaceChildren(...report.types.filter((t) => t.corroboration).map(corroborationRow));
  // Upstreams that were called or have a problem first; the rest after, by name.
  const hosts = report.upstreams.slice().sort((a, b) => (b.calls > 0) - (a.calls > 0) || a.name.localeCompare(b.name));
  hostsBody.replaceChildren(...hosts.map((h) => hostRow(h, nowS)));
}

function showNotice(text) {
  noticeEl.textContent = text;
  noticeEl.hidden = !text;
}

async function refresh() {
  try {
    const res = await fetch('/api/v1/status', { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error('HTTP ' + res.status);
    render(await res.json());
    showNotice('');
  } catch (e) {
    showNotice('Could not load /api/v1/status (' + e.message + '); retrying in 30 s.');
  }
}

void refresh();
setInterval(() => void refresh(), REFRESH_MS);
