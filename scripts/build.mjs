#!/usr/bin/env node
// Build: type-check the TypeScript, bundle it into CommonJS files, then write
// oclif.manifest.json from the built commands so a stale manifest can never hide a command
// (oclif trusts the manifest when it exists).
//
// Why bundles, and why CommonJS (docs/PERFORMANCE.md, change 23): start-up is most of what a
// hookctl command costs. One file per command plus shared chunks loads in a fraction of the time
// of 60 small ES modules, and CommonJS is what the compile cache (src/cli/compile-cache.ts) can
// keep between runs on Node 20, which has no cache for ES modules. Every dynamic import stays a
// separate chunk, loaded only when reached: `hooks list` still never loads the hook runner.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { buildInputsHash, stampFile } from './build-stamp.mjs';
import { knownRequires } from './lib/known-requires.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Hashed before building: a source edited while the build runs makes the stamp stale, not wrong.
const inputsHash = buildInputsHash(root);
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
rmSync(join(root, 'oclif.manifest.json'), { force: true });
// tsc only checks (tsconfig.json has noEmit); rolldown compiles.
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], {
  stdio: 'inherit',
});

// Entries: what bin/run.js requires, and each command (oclif loads them by path from the manifest).
const input = {
  'cli/compile-cache': 'src/cli/compile-cache.ts',
  'cli/run': 'src/cli/run.ts',
  'cli/help': 'src/cli/help.ts', // oclif's helpClass (package.json), loaded only to show help
  'commands/help': 'src/commands/help.ts',
};
for (const file of readdirSync(join(root, 'src', 'commands', 'hooks')).sort()) {
  if (file.endsWith('.ts')) input[`commands/hooks/${file.slice(0, -3)}`] = `src/commands/hooks/${file}`;
}
// `diff` (a dev dependency) is bundled into the editing commands' chunk: only `--dry-run` and
// the change summaries use it, and its ES modules would otherwise be loaded as such.
// The OpenTelemetry packages are bundled too, into the chunk that exports (loaded only when an
// endpoint is set): installed, the packages and their dependencies took 25 MB on disk, most of
// it builds and declarations hookctl never loads (docs/PERFORMANCE.md "Installed size").
const BUNDLED = new Set(['diff', '@opentelemetry', 'protobufjs', '@protobufjs']);
const bundle = await rolldown({
  cwd: root,
  input,
  platform: 'node',
  tsconfig: join(root, 'tsconfig.json'),
  // Packages and Node's modules stay `require`s: oclif must stay the installed oclif (its
  // deferral in src/cli/lazy-oclif.ts works on its files), and npm updates them on their own.
  // BUNDLED packages are the exception: built into the one chunk that uses them.
  external: (id) =>
    !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !BUNDLED.has(id.split('/')[0]),
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  // What the groups below need (a group taking only the files it names): an entry (a command,
  // which oclif reads for its class) may export more than its source does, never less.
  preserveEntrySignatures: 'allow-extension',
  onLog(level, log, handler) {
    if (level === 'warn') throw new Error(`build: ${log.message}`); // a warning here is a bug to fix
    handler(level, log);
  },
});
const { output } = await bundle.write({
  dir: dist,
  format: 'cjs',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  // `import('smol-toml')` of a package becomes a require: no ES module loader in a run at all.
  dynamicImportInCjs: false,
  // What reads declarations, as three chunks instead of twelve: the shared readers (source files,
  // TOML and JSON positions, front matter, secrets, durations, the validation report), compozy's
  // sources and rules, and cosh's loader, matcher and states. A command that reads a dialect
  // loads all of its files anyway, each file costs ~0.1 ms of loader work however small
  // (docs/PERFORMANCE.md, changes 34 and 38), and `runs`/`events` load none. Only the files
  // named go in (not what they import), and each dialect keeps its own chunk, so
  // `--dialect cosh` still loads no compozy reader.
  codeSplitting: {
    groups: [
      group('declarations', [
        String.raw`declarations[\/](source-file|frontmatter|yaml-fast|toml-locate|secrets|duration|json-locate|json|code-points|path-inside)`,
        String.raw`validate[\/](relative-path|report)`,
      ]),
      group('compozy-read', [String.raw`dialects[\/]compozy[\/](rules|sources)[\/][a-z-]+`]),
      group('cosh-read', [String.raw`dialects[\/]cosh[\/](hook|config|extension|load|matcher|states)`]),
    ],
  },
  comments: { legal: false },
});
await bundle.close();

/** A chunk of the source files under src/ matching `paths` (regular expressions, no extension). */
function group(name, paths) {
  const test = new RegExp(paths.map((path) => String.raw`[\/]src[\/]${path}\.ts$`).join('|'));
  return { name, test, includeDependenciesRecursively: false };
}

// dist/ is CommonJS whatever the root package.json says; the nearest package.json also ends
// Node's scope lookup for every file here instead of walking up every folder.
writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
// Which source modules each file holds and which files it loads: the import-graph tests check
// the read commands against this (test/e2e/import-graph.test.ts).
const files = {};
for (const chunk of output) {
  if (chunk.type !== 'chunk') continue;
  files[chunk.fileName] = {
    modules: chunk.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => relative(root, id)),
    imports: chunk.imports,
    dynamicImports: chunk.dynamicImports,
  };
}
writeFileSync(join(dist, 'modules.json'), JSON.stringify(files, null, 2) + '\n');
// The Bash grammar's WebAssembly, copied byte for byte from tree-sitter-bash (a devDependency):
// the package ships this one file instead of depending on tree-sitter-bash, whose 20 MB of C
// sources and native prebuilds hookctl never loads and whose install script npm warns about
// (docs/PERFORMANCE.md "Installed size"). bash-rule.ts reads it at `../` from its chunk.
const bashRuleChunk = Object.keys(files).find((f) =>
  files[f].modules.includes(join('src', 'dialects', 'claude', 'bash-rule.ts')),
);
if (bashRuleChunk === undefined || dirname(bashRuleChunk) !== 'chunks')
  throw new Error(
    `build: bash-rule.ts is in ${bashRuleChunk ?? 'no file'}, not in chunks/: it would not find its grammar`,
  );
copyFileSync(
  join(root, 'node_modules', 'tree-sitter-bash', 'tree-sitter-bash.wasm'),
  join(dist, 'tree-sitter-bash.wasm'),
);
// Node's answers to the requires of oclif and smol-toml, for src/cli/resolve-shortcut.ts.
writeFileSync(join(dist, 'known-requires.json'), JSON.stringify(knownRequires(join(dist, 'cli', 'run.js'))) + '\n');

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
  if (c.isESM) throw new Error(`build: ${id} was built as an ES module`);
}
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
// Last: a build that failed half-way leaves no stamp, so the next build-if-changed builds again.
writeFileSync(stampFile(root), inputsHash + '\n');
console.log(`build: ${Object.keys(files).length} files in dist/, ${ids.length} commands in oclif.manifest.json`);
