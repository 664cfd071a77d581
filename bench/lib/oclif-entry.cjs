// bin/run.js as it was before the fast path (issue 25): every invocation through oclif. The
// start-up figure measures a handed-over invocation against it (bench/figures/startup.mjs).
'use strict';
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
require(join(root, 'dist/cli/boot.js')).enableCompileCache(module.constructor);
require(join(root, 'dist/cli/run.js')).runCli(process.argv.slice(2), root);
