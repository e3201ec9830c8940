/*
 * The live timeline shared by the watch page and the widget. At start-up the server wraps this file
 * and the page's (or widget's) own script in one function scope, so nothing here becomes a global.
 * Text from the stream is only ever set with textContent.
 */
const MAX_ITEMS = 500;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clockTime(ts) {
  return new Date(ts).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/**
 * Builds the timeline markup into `parent` and returns the parts the stream updates. Landmarks and
 * headings let screen readers jump around; new events are announced through aria-live.
 */
function buildView(parent, headingTag) {
  const header = el('header', 'session-header');
  const label = el(headingTag, 'session-label', 'Agent session');
  const meta = el('p', 'session-meta');
  const status = el('span', 'status', 'connecting');
  status.dataset.status = 'connecting';
  const watchers = el('span', 'watchers', '–');
  meta.append(status, el('span', 'sep', ' · '), watchers, el('span', '', ' watching'));
  header.append(label, meta);

  const shotSection = el('section', 'shot');
  shotSection.setAttribute('aria-label', 'Latest screenshot');
  const figure = el('figure');
  const shot = el('img');
  shot.alt = '';
  shot.hidden = true;
  const shotCaption = el('figcaption', '', 'No screenshot yet');
  figure.append(shot, shotCaption);
  shotSection.append(figure);

  const timelineSection = el('section', 'timeline-section');
  timelineSection.setAttribute('aria-label', 'Timeline');
  const timeline = el('ol', 'timeline');
  timeline.setAttribute('aria-live', 'polite');
  timeline.setAttribute('aria-relevant', 'additions');
  timeline.tabIndex = 0;
  const empty = el('p', 'empty', 'Waiting for the agent’s first action…');
  timelineSection.append(timeline, empty);

  parent.append(header, shotSection, timelineSection);
  return { label, status, watchers, shot, shotCaption, timeline, empty };
}

/**
 * Follows a session stream and keeps `view` current. EventSource resumes with Last-Event-ID by
 * itself after a dropped connection; when the browser gives up (an error status), a new stream is
 * opened with `last_event_id`, backing off to 30 s. Events already shown are never shown twice.
 */
function watchSession(streamUrl, view, onLabel) {
  let lastSeq = 0;
  let finished = false;
  let retryMs = 1000;

  function setStatus(status) {
    view.status.textContent = status;
    view.status.dataset.status = status;
  }

  function show(message) {
    if (message.seq <= lastSeq) return;
    lastSeq = message.seq;
    const item = el('li', 'event');
    item.dataset.kind = message.kind;
    item.dataset.seq = String(message.seq);
    const time = el('time', 'time', clockTime(message.ts));
    time.dateTime = new Date(message.ts).toISOString();
    const text = message.kind === 'end' ? 'Session ' + message.text : message.text;
    item.append(time, el('span', 'kind', message.kind), el('span', 'text', text));
    view.timeline.append(item);
    if (view.timeline.children.length > MAX_ITEMS) view.timeline.firstElementChild.remove();
    view.empty.hidden = true;
    if (message.screenshot_url) {
      view.shot.src = message.screenshot_url;
      view.shot.alt = 'Screenshot posted at ' + clockTime(message.ts) + (message.text ? ': ' + message.text : '');
      view.shot.hidden = false;
      view.shotCaption.textContent = clockTime(message.ts) + (message.text ? ' — ' + message.text : '');
    }
  }

  function onState(state) {
    if (state.label !== undefined) {
      const label = state.label || 'Agent session';
      view.label.textContent = label;
      if (onLabel) onLabel(label);
    }
    if (state.watchers !== undefined) view.watchers.textContent = String(state.watchers);
    if (state.status) setStatus(state.status);
  }

  function open() {
    // state=1: the session state and watcher counts come as messages with a `state` field.
    const url = streamUrl + '&state=1' + (lastSeq ? '&last_event_id=' + lastSeq : '');
    const source = new EventSource(url);
    // Every message is unnamed: posted events (an `error` kind among them) all arrive here.
    source.onmessage = (e) => {
      const message = JSON.parse(e.data);
      if (message.kind === undefined) return onState(message.state);
      show(message);
      if (message.kind !== 'end') return;
      finished = true;
      setStatus(message.state.status);
      source.close();
    };
    source.onopen = () => (retryMs = 1000);
    source.onerror = () => {
      if (finished) return source.close();
      setStatus('reconnecting');
      if (source.readyState !== EventSource.CLOSED) return;
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 30000);
    };
  }

  open();
}
