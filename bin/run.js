#!/usr/bin/env node
// Entry point (CommonJS: bin/package.json). Start-up is most of what a hookctl command costs
// (docs/PERFORMANCE.md), so a run loads no ES module at all: dist/ is CommonJS bundles, and the
// compile cache keeps V8's compiled code of them and of oclif between runs.
//
// dist/cli/boot.js (src/cli/boot.ts) installs the cache, then runs `hooks list|info|runs|events`
// from dist/fast-main.js, one file without oclif, when its parser is certain of argv (issue 25);
// anything else goes, before anything is printed, to dist/cli/run.js, which runs oclif's
// execute() by a narrower path (the command is found in oclif.manifest.json).
'use strict';
require('../dist/cli/boot.js').boot(module, process.argv.slice(2), require('node:path').join(__dirname, '..'));
