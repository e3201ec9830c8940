/* The watch page: /watch/<session_id>. */
const sessionId = decodeURIComponent(location.pathname.split('/').pop() || '');
const view = buildView(document.getElementById('session'), 'h1');
watchSession('/api/agent-session/stream?session_id=' + encodeURIComponent(sessionId), view, (label) => {
  document.title = label + ' · svc live session';
});
