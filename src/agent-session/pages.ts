import { asset, read } from '../plugins/static-assets.js';

/** One function scope around the shared timeline and a page's own script: no globals leak. */
const bundle = (constants: Record<string, unknown>, ...files: string[]) =>
  `(() => {\n'use strict';\n${Object.entries(constants)
    .map(([name, value]) => `const ${name} = ${JSON.stringify(value)};\n`)
    .join('')}${files.map(read).join('\n')}})();\n`;

/** Revalidated on every use (no-cache) for pages, an hour for assets; the ETag makes revalidation cheap. */
const PAGE_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=3600';

/**
 * The watch page, its 404 page, their script and stylesheet, and the widget: read from `public/`
 * once at start-up. The scripts are the shared timeline plus each one's own file, each wrapped in
 * one function (no build step, nothing to install).
 */
export function loadPages() {
  return {
    watchPage: asset(read('watch.html'), 'text/html; charset=utf-8', PAGE_CACHE),
    notFoundPage: asset(read('404.html'), 'text/html; charset=utf-8', PAGE_CACHE),
    watchScript: asset(bundle({}, 'timeline.js', 'watch-page.js'), 'text/javascript; charset=utf-8', ASSET_CACHE),
    watchStyles: asset(read('timeline.css') + read('watch.css'), 'text/css; charset=utf-8', ASSET_CACHE),
    widgetScript: asset(
      bundle({ WIDGET_CSS: read('timeline.css') + read('widget.css') }, 'timeline.js', 'widget.js'),
      'text/javascript; charset=utf-8',
      'public, max-age=300',
    ),
  };
}
