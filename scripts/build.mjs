#!/usr/bin/env node
// Build: compile TypeScript, then write oclif.manifest.json from the compiled commands so a
// stale manifest can never hide a command (oclif trusts the manifest when it exists).
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
rmSync(join(root, 'oclif.manifest.json'), { force: true });
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], {
  stdio: 'inherit',
});
// Node looks up the nearest package.json of every module it loads to learn its format; one in
// dist/ ends each lookup there instead of walking up every folder (docs/PERFORMANCE.md).
writeFileSync(join(root, 'dist', 'package.json'), '{ "type": "module" }\n');

const { Plugin } = await import('@oclif/core');
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, isRoot: true });
await plugin.load();
const manifest = plugin.manifest;
const ids = Object.keys(manifest.commands);
if (ids.length === 0) throw new Error('build: no commands found for the manifest');
// oclif imports a command straight from the manifest only when the entry says where the module
// is and what kind it is; otherwise it searches dist/commands at run time.
for (const id of ids) {
  const c = manifest.commands[id];
  if (c.isESM === undefined || !Array.isArray(c.relativePath))
    throw new Error(`build: manifest entry ${id} lacks isESM/relativePath`);
}
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`build: ${ids.length} commands in oclif.manifest.json`);
