/*
 * The olympics scoreboard: /olympics. The server wraps this file in one function scope. It reads the
 * medals and events routes, then refreshes them whenever the ticker reports something. Text from the
 * API is only ever set with textContent.
 */
const statusEl = document.querySelector('.status');
const summaryEl = document.querySelector('.summary');
const noticeEl = document.querySelector('.notice');
const medalsBody = document.querySelector('.medals tbody');
const eventsList = document.querySelector('.events');
const scoringEl = document.querySelector('.scoring');

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const NO_MODELS =
  'No language models are configured for the panel role on this server, so it runs no olympics. Its operator can set SVC_MODELS ' +
  'with up to four models from different vendors serving the panel role; events then open on a schedule.';

const fixed = (value, digits) => (value === null || value === undefined ? '–' : value.toFixed(digits));

function setStatus(text) {
  statusEl.textContent = text;
  statusEl.dataset.status = text;
}

function showNotice(text) {
  noticeEl.textContent = text;
  noticeEl.hidden = !text;
}

function medalRow(standing, rank) {
  const row = el('tr');
  const name = el('td');
  const vendor = el('span', 'vendor', standing.vendor);
  vendor.title = standing.vendor + ' model ' + standing.model;
  name.append(el('span', 'model-id', standing.model_id), vendor);
  row.append(
    el('td', '', String(rank)),
    name,
    el('td', 'gold', String(standing.gold)),
    el('td', 'silver', String(standing.silver)),
    el('td', 'bronze', String(standing.bronze)),
  );
  for (const [value, digits] of [
    [standing.brier, 3],
    [standing.log_loss, 3],
    [standing.ece, 3],
  ])
    row.append(el('td', '', fixed(value, digits)));
  row.append(el('td', '', String(standing.answered)), el('td', '', String(standing.failed)), el('td', '', String(standing.timed_out)));
  return row;
}

function answerItem(answer) {
  const item = el('li');
  const figure = answer.status === 'answered' ? 'p = ' + fixed(answer.p, 2) : answer.status.replace('_', ' ');
  item.append(el('span', '', answer.model_id + ': ' + figure));
  if (answer.medal) item.append(el('span', 'medal ' + answer.medal, ' ' + answer.medal));
  return item;
}

const SHORT_TIME = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** A <time> a person reads at a glance ("Nov 23, 12:00"), with the exact instant for machines and on hover. */
function timeOf(ms) {
  const when = el('time', 'when', SHORT_TIME.format(ms));
  when.dateTime = new Date(ms).toISOString();
  when.title = new Date(ms).toString();
  return when;
}

function eventItem(event) {
  const item = el('li', 'event');
  const head = el('div', 'event-head');
  const mode = el('span', 'chip', event.mode);
  mode.dataset.mode = event.mode;
  const outcome = event.status === 'resolved' ? 'resolved: ' + (event.outcome === 1 ? 'yes' : 'no') : event.status;
  head.append(el('span', 'chip', event.discipline), mode, el('span', 'chip', outcome), timeOf(event.opened_at));
  const answers = el('ul', 'answers');
  for (const answer of event.answers) answers.append(answerItem(answer));
  item.append(head, el('p', 'question', event.question), answers);
  return item;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.message || 'HTTP ' + response.status), { code: body.error });
  return body;
}

async function refresh() {
  try {
    const [medals, page] = await Promise.all([getJson('/api/v1/olympics/medals'), getJson('/api/v1/olympics/events?limit=20')]);
    showNotice('');
    medalsBody.replaceChildren(...medals.medal_table.map((standing, i) => medalRow(standing, i + 1)));
    summaryEl.textContent = medals.resolved_events + ' resolved live events · ' + medals.medal_table.length + ' models';
    scoringEl.textContent = medals.scoring;
    eventsList.replaceChildren(...(page.events.length ? page.events.map(eventItem) : [el('li', 'empty', 'No events yet.')]));
    return true;
  } catch (error) {
    const unavailable = error.code === 'model_unavailable';
    showNotice(unavailable ? NO_MODELS : 'The scoreboard could not be loaded: ' + error.message);
    for (const part of document.querySelectorAll('main section, .rules')) part.hidden = unavailable;
    setStatus('offline');
    return false;
  }
}

let pending;
function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(refresh, 250);
}

function follow() {
  const source = new EventSource('/api/v1/olympics/ticker');
  source.onopen = () => {
    setStatus('live');
    refreshSoon(); // catch up on what happened before this page first connected
  };
  source.onerror = () => setStatus('reconnecting');
  source.onmessage = refreshSoon;
}

refresh().then((ok) => ok && follow());
