#!/usr/bin/env node
// `npm run build`, skipped when dist/ was built from the sources as they are now
// (scripts/build-stamp.mjs). For the scripts a user runs again and again (`npm run demo`,
// `npm run fuzz`); `npm test` and `npm pack` always build from scratch.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsCurrent(root)) {
  console.log('build: dist/ is up to date with src/ (delete dist/ to force a build)');
} else {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
