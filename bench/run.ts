/** Runs every benchmark in turn; each prints its own JSON. */
await import('./preview-vs-bare.js');
await import('./bundle-latency.js');
await import('./entity-resolve.js');
await import('./constitutional-rules.js');
