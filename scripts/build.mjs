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

const { Plugin } = await import('@oclif/core');
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, isRoot: true });
await plugin.load();
const manifest = plugin.manifest;
if (Object.keys(manifest.commands).length === 0) throw new Error('build: no commands found for the manifest');
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`build: ${Object.keys(manifest.commands).length} commands in oclif.manifest.json`);
