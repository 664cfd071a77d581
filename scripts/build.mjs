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
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { buildInputsHash, stampFile } from './build-stamp.mjs';
import { knownRequires } from './lib/known-requires.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Hashed before building: a source edited while the build runs makes the stamp stale, not wrong.
const inputsHash = buildInputsHash(root);
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
rmSync(join(root, 'oclif.manifest.json'), { force: true });
// tsc only checks (tsconfig.json has noEmit); rolldown compiles.
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], {
  stdio: 'inherit',
});

// Entries: the oclif path (dist/cli/boot.js, built apart below, requires it), and each command
// (oclif loads them by path from the manifest).
const input = {
  'cli/run': 'src/cli/run.ts',
  'cli/help': 'src/cli/help.ts', // oclif's helpClass (package.json), loaded only to show help
  'commands/help': 'src/commands/help.ts',
  // The maker of the fast path's flag table (used by this build only).
  'cli/flag-table': 'src/cli/flag-table.ts',
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
// dist/cli/boot.js, what bin/run.js requires (src/cli/boot.ts): the compile cache, the fast
// path's argv parser and the choice of path, one file that requires only Node's modules. It is
// loaded before the cache is installed, so it is compiled on every start: one file, and none of
// rolldown's runtime helpers (the build fails if it needs one).
const bootBundle = await rolldown({
  cwd: root,
  input: { 'cli/boot': 'src/cli/boot.ts' },
  platform: 'node',
  tsconfig: join(root, 'tsconfig.json'),
  external: (id) => id.startsWith('node:'),
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  onLog(level, log, handler) {
    if (level === 'warn') throw new Error(`build: ${log.message}`);
    handler(level, log);
  },
});
const { output: bootOutput } = await bootBundle.write({
  dir: dist,
  format: 'cjs',
  entryFileNames: '[name].js',
  comments: false, // scanned on every start
});
await bootBundle.close();
if (bootOutput.length !== 1 || /rolldown-runtime|require_rolldown_runtime|require\("\.{1,2}\//.test(bootOutput[0].code))
  throw new Error('build: dist/cli/boot.js is not one file without the rolldown runtime');

/** A chunk of the source files under src/ matching `paths` (regular expressions, no extension). */
function group(name, paths) {
  const test = new RegExp(paths.map((path) => String.raw`[\/]src[\/]${path}\.ts$`).join('|'));
  return { name, test, includeDependenciesRecursively: false };
}

// The fast path of `hooks list|info|runs|events` (issue 25, docs/PERFORMANCE.md): src/cli/fast.ts
// and everything it loads, dynamic imports included, in one file, dist/fast.js: each file costs
// loader work, and one file is one compile-cache entry (src/cli/compile-cache.ts). The pure
// JavaScript packages the read commands parse with go in too; a package loaded only by other
// work (OpenTelemetry for --export, the Bash grammar's runtime) stays a require, loaded when
// reached. No @oclif/core: the build fails if the file requires it. Pure ASCII (`charset`, and
// checked below): V8 keeps a one-byte source as it is, where one non-ASCII character makes it
// convert the whole file to two-byte text on every load.
const FAST_BUNDLED = new Set(['smol-toml', 'yaml', ...BUNDLED]);
// What the four commands reach through a dynamic import (the dialects load their readers on
// demand): built into the file too, by the entry importing them. Every other dynamic import
// (fire, validate, edit, export) stays a chunk of its own under dist/fast-chunks/, loaded only
// when reached, with the packages it requires.
const FAST_READERS = [
  'src/dialects/compozy/catalog.ts',
  'src/dialects/compozy/sources/load.ts',
  'src/dialects/compozy/rules/ordering.ts',
  'src/dialects/cosh/load.ts',
  'src/dialects/cosh/states.ts',
];
// Claude Code's loader stays a chunk of its own, loaded only where one of its folders exists (as
// in the oclif path): it requires node:fs/promises, which loads readline and file handles. So do
// the event details and schemas (`hooks events EVENT`): their release tables, built at load,
// were a tenth of a `hooks list`'s instructions.
const FAST_ENTRY = '\0hookctl-fast-entry';
const fastBundle = await rolldown({
  cwd: root,
  input: { fast: FAST_ENTRY },
  // The chunks import what they share with the file from the file itself: it is loaded already.
  preserveEntrySignatures: 'allow-extension',
  plugins: [
    {
      name: 'hookctl-fast-entry',
      resolveId: (id) => (id === FAST_ENTRY ? id : undefined),
      load: (id) =>
        id === FAST_ENTRY
          ? [
              `export * from ${JSON.stringify(join(root, 'src/cli/fast.ts'))};`,
              ...FAST_READERS.map((f) => `import ${JSON.stringify(join(root, f))};`),
            ].join('\n')
          : undefined,
    },
  ],
  platform: 'node',
  tsconfig: join(root, 'tsconfig.json'),
  external: (id) =>
    !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !FAST_BUNDLED.has(id.split('/')[0]),
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  onLog(level, log, handler) {
    // The readers' dynamic imports are meant to stay in the file (FAST_READERS).
    if (level === 'warn' && log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
    if (level === 'warn') throw new Error(`build: ${log.message}`);
    handler(level, log);
  },
});
const { output: fastOutput } = await fastBundle.write({
  dir: dist,
  format: 'cjs',
  entryFileNames: '[name].js',
  // The file itself is the group below (bin/run.js requires it, not the entry's stub): rolldown
  // gives modules shared by the entry and its dynamic imports chunks of their own, unless a
  // group takes them.
  chunkFileNames: (chunk) => (chunk.name === 'fast-main' ? 'fast-main.js' : 'fast-chunks/[name]-[hash].js'),
  codeSplitting: {
    groups: [
      {
        name: 'fast-main',
        test: new RegExp(
          ['src/cli/fast.ts', ...FAST_READERS]
            .map((f) => `${f.replaceAll('/', String.raw`[\/]`)}$`)
            .concat(String.raw`^\0rolldown[\/]runtime`)
            .join('|'),
        ),
        includeDependenciesRecursively: true,
      },
    ],
  },
  dynamicImportInCjs: false,
  charset: 'ascii',
  comments: false,
});
await fastBundle.close();
const fastMain = fastOutput.find((c) => c.type === 'chunk' && c.fileName === 'fast-main.js');
// rolldown always puts its runtime helpers (stateless: __toESM and the like) in a chunk of their
// own; fast-main.js gets its own copy, written in where it would require the chunk.
const runtimeChunk = fastOutput.find(
  (c) => c.type === 'chunk' && c.fileName.startsWith('fast-chunks/rolldown-runtime-'),
);
const fastFiles = new Set(fastOutput.map((c) => c.fileName));
if (fastMain === undefined || fastMain.imports.some((f) => fastFiles.has(f) && f !== runtimeChunk?.fileName))
  throw new Error('build: dist/fast-main.js is not one file (it requires a chunk at load)');
rmSync(join(dist, 'fast.js')); // the entry's stub, which only requires fast-main.js
let fastText = readFileSync(join(dist, 'fast-main.js'), 'latin1');
if (runtimeChunk !== undefined) {
  const request = `require("./${runtimeChunk.fileName}")`;
  if (fastText.split(request).length !== 2) throw new Error(`build: fast-main.js does not ${request} once`);
  const inlined = `(() => {\nconst module = { exports: {} };\nconst exports = module.exports;\n${runtimeChunk.code}\nreturn module.exports;\n})()`;
  fastText = fastText.replace(request, () => inlined);
  writeFileSync(join(dist, 'fast-main.js'), fastText, 'latin1');
}
// Node's modules that only a few paths of the read commands use (os.homedir() where HOME is not
// set; createRequire for the terminal check and for the full YAML parser) are required where they
// are used, not at load: node:module brings Node's ES module loader, its source maps and
// assertions, and the two were ~0.4 ms of every start (docs/PERFORMANCE.md). Node caches a
// required module, so each later use is a look-up.
for (const id of ['node:os', 'node:module']) {
  const name = `node_${id.slice('node:'.length)}`;
  const declaration = `let ${name} = require(${JSON.stringify(id)});\n`;
  if (fastText.split(declaration).length !== 2) throw new Error(`build: dist/fast-main.js does not require ${id} once`);
  fastText = fastText
    .replace(declaration, '')
    .replace(new RegExp(String.raw`\b${name}\.`, 'g'), `require(${JSON.stringify(id)}).`);
  if (new RegExp(String.raw`\b${name}\b`).test(fastText))
    throw new Error(`build: dist/fast-main.js uses ${name} other than as ${name}.member`);
}
writeFileSync(join(dist, 'fast-main.js'), fastText, 'latin1');
for (let i = 0; i < fastText.length; i++)
  if (fastText.charCodeAt(i) > 0x7f) throw new Error(`build: dist/fast-main.js is not pure ASCII (at ${i})`);
if (/require\(\s*["'`]@oclif\//.test(fastText)) throw new Error('build: dist/fast-main.js requires @oclif/core');

// dist/ is CommonJS whatever the root package.json says; the nearest package.json also ends
// Node's scope lookup for every file here instead of walking up every folder.
writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
// Which source modules each file holds and which files it loads: the import-graph tests check
// the read commands against this (test/e2e/import-graph.test.ts).
const files = {};
for (const chunk of [...output, ...bootOutput]) {
  if (chunk.type !== 'chunk') continue;
  files[chunk.fileName] = {
    modules: chunk.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => relative(root, id)),
    imports: chunk.imports,
    dynamicImports: chunk.dynamicImports,
  };
}
for (const chunk of fastOutput) {
  if (chunk.type !== 'chunk' || chunk.fileName === 'fast.js') continue;
  files[chunk.fileName] = {
    modules: chunk.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => relative(root, id)),
    // fast-main.js holds its own copy of the runtime chunk (above).
    imports:
      chunk.fileName === 'fast-main.js' ? chunk.imports.filter((f) => f !== runtimeChunk?.fileName) : chunk.imports,
    dynamicImports: chunk.dynamicImports.filter((f) => f !== chunk.fileName),
  };
}
writeFileSync(join(dist, 'modules.json'), JSON.stringify(files, null, 2) + '\n');
// The Bash grammar's WebAssembly, copied byte for byte from tree-sitter-bash (a devDependency):
// the package ships this one file instead of depending on tree-sitter-bash, whose 20 MB of C
// sources and native prebuilds hookctl never loads and whose install script npm warns about
// (docs/PERFORMANCE.md "Installed size"). bash-rule.ts reads it at `../` from its chunk.
const bashRuleChunk = Object.keys(files).find((f) =>
  files[f].modules.includes(join('src', 'dialects', 'claude', 'rules', 'bash-rule.ts')),
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
// The fast path's flag table, made of the built command classes themselves (src/cli/flag-table.ts).
const requireDist = createRequire(join(dist, 'cli', 'run.js'));
const { flagTable } = requireDist('./flag-table.js');
// The commands are boot's own list (src/cli/fast-argv.ts): it hands the others over unread.
const FAST_COMMANDS = createRequire(join(dist, 'cli', 'boot.js'))('./boot.js').FAST_COMMAND_IDS;
const fastClasses = Object.fromEntries(
  FAST_COMMANDS.map((id) => [id, requireDist(`../commands/${id.replaceAll(':', '/')}.js`)]),
);
const table = await flagTable(pjson.oclif.bin, fastClasses);
for (const id of FAST_COMMANDS)
  if (!(id in table.commands)) throw new Error(`build: ${id} has a flag the fast path cannot parse`);
writeFileSync(join(dist, 'fast-flags.json'), JSON.stringify(table) + '\n');
// Last: a build that failed half-way leaves no stamp, so the next build-if-changed builds again.
writeFileSync(stampFile(root), inputsHash + '\n');
console.log(`build: ${Object.keys(files).length} files in dist/, ${ids.length} commands in oclif.manifest.json`);
