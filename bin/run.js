#!/usr/bin/env node
// Entry point (CommonJS: bin/package.json). Start-up is most of what a hookctl command costs
// (docs/PERFORMANCE.md), so a run loads no ES module at all: dist/ is CommonJS bundles, and the
// compile cache keeps V8's compiled code of them and of oclif between runs. dist/cli/run.js runs
// oclif's execute() by a narrower path; the command is found in oclif.manifest.json.
'use strict';
const { join } = require('node:path');

const root = join(__dirname, '..');
require('../dist/cli/compile-cache.js').enableCompileCache();
require('../dist/cli/run.js').runCli(process.argv.slice(2), root);
