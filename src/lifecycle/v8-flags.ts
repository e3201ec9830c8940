import { setFlagsFromString } from 'node:v8';

/**
 * No allocation-site pretenuring in the server process (main.ts imports this first, so it is set before the rest of
 * the server is evaluated). V8 allocates a literal's objects straight in the old generation once nearly all of them
 * survived scavenges of a young generation at its largest size. With the scheduler on, its jobs grew the young
 * generation there and a site used per request was tenured; from then on its dead objects kept every request's objects
 * (request, response, headers, socket writes) alive until the next mark-compact: ~2 KB of old generation a request,
 * a major GC every few seconds under load. bench/README.md, "Issue 39: the default configuration's old generation".
 */
setFlagsFromString('--no-allocation-site-pretenuring');
