#!/usr/bin/env node
// Entry point. Start-up is most of what a hookctl command costs (docs/PERFORMANCE.md), so the
// work is in dist/cli/run.js: oclif's execute() by a narrower path, with the parts of oclif a
// command run never touches loaded only if needed. The command is found in oclif.manifest.json.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1+ keeps compiled code between runs; Node 20 has no such cache and skips this.
module.enableCompileCache?.();

const { runCli } = await import('../dist/cli/run.js');
await runCli(process.argv.slice(2), fileURLToPath(new URL('..', import.meta.url)));
