// After `tsc -p tsconfig.build.json`: the data files the compiled code reads next to itself (curated
// JSON, fixtures, evaluation sets) and the public pages, copied into dist/ with the same layout.
import { cpSync } from 'node:fs';

cpSync('src', 'dist/src', { recursive: true, filter: (path) => !path.endsWith('.ts') });
cpSync('public', 'dist/public', { recursive: true });
cpSync('bench/cannon.mjs', 'dist/bench/cannon.mjs');
