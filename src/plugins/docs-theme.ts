/** /docs (Swagger UI) in svc's look: its navy top bar and link colour, and a layout that fits a phone. */
export const DOCS_CSS = `
.swagger-ui .topbar { background: #1f3a5f; padding: 6px 0; }
.swagger-ui .topbar .topbar-wrapper { padding: 0 16px; display: flex; flex-wrap: nowrap; align-items: center; justify-content: space-between; }
.swagger-ui .topbar a { max-width: 48px; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui a, .swagger-ui .info a { color: #1a5fd0; }
.swagger-ui .info .title small { background: #1f3a5f; }
@media (max-width: 600px) {
  .swagger-ui .wrapper { padding: 0 8px; }
  .swagger-ui .info { margin: 16px 0; }
  .swagger-ui .info .title { font-size: 26px; }
  .swagger-ui .scheme-container { padding: 12px 0; }
  .swagger-ui .scheme-container .schemes { flex-wrap: wrap; gap: 8px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-path { max-width: calc(100% - 80px); word-break: break-all; font-size: 14px; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; padding: 4px 0 0; }
  .swagger-ui .opblock-tag { font-size: 18px; padding: 10px 0; }
  .swagger-ui table { display: block; overflow-x: auto; }
}
`;
