/*
 * The embeddable widget: <script src="{base_url}/widget/watch.js" data-session="as_…"></script>.
 * Renders into a Shadow DOM next to its script tag: the host page's CSS cannot reach in and nothing
 * leaks out (no globals; styles adopted as a constructed sheet, so no inline <style> for the host's CSP).
 */
const script = document.currentScript;
const sessionId = script && script.dataset.session;
if (sessionId) {
  const origin = new URL(script.src).origin;
  const host = document.createElement('div');
  host.dataset.svcWatch = sessionId;
  script.after(host);
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(WIDGET_CSS);
  root.adoptedStyleSheets = [sheet];
  const frame = el('section', 'widget');
  frame.setAttribute('aria-label', 'Live agent session');
  root.append(frame);
  const view = buildView(frame, 'h2');
  const link = el('a', 'watch-link', 'Open the full watch page');
  link.href = origin + '/watch/' + encodeURIComponent(sessionId);
  link.target = '_blank';
  link.rel = 'noopener';
  frame.append(link);
  watchSession(origin + '/api/agent-session/stream?session_id=' + encodeURIComponent(sessionId), view);
}
