#!/usr/bin/env node
// Entry point (CommonJS: bin/package.json). Start-up is most of what a hookctl command costs
// (docs/PERFORMANCE.md), so a run loads no ES module at all: dist/ is CommonJS bundles, and the
// compile cache keeps V8's compiled code of them and of oclif between runs.
//
// `hooks list|info|runs|events` take the fast path when its parser (dist/cli/fast-argv.js, over
// the flag table the build made of the commands, dist/fast-flags.json) is certain of argv: the
// command runs from dist/fast-main.js, one file without oclif (issue 25). Anything else goes, before
// anything is printed, to dist/cli/run.js, which runs oclif's execute() by a narrower path; the
// command is found in oclif.manifest.json.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const argv = process.argv.slice(2);
const compileCache = require('../dist/cli/compile-cache.js');
compileCache.enableCompileCache();
const fast = fastParse();
if (fast) {
  // One compile-cache entry of the file per command: each holds the code its own command calls.
  compileCache.cacheVariant(require.resolve('../dist/fast-main.js'), fast.parse.id);
  require('../dist/fast-main.js').runFast(fast.parse, fast.table, root);
} else require('../dist/cli/run.js').runCli(argv, root);

function fastParse() {
  if (argv[0] !== 'hooks') return undefined;
  const { fastParse: parse, handOverForEnv } = require('../dist/cli/fast-argv.js');
  if (handOverForEnv(process.env)) return undefined;
  let table;
  try {
    table = JSON.parse(readFileSync(join(root, 'dist', 'fast-flags.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = parse(table, argv);
  return parsed && { parse: parsed, table };
}
