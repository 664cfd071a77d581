// The read commands never load the code that runs hooks or writes run records (SPEC §7: fast
// start; issue 2: "list, info, events and validate do not import the subprocess or run-log
// code"). dist/ is bundles (scripts/build.mjs): dist/modules.json, written by the build, says
// which source modules each built file holds and which files it requires, at once or on demand.
// The requires are checked against the built files themselves, so the map cannot drift from them.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, repoRoot, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dist = join(repoRoot, 'dist');

interface BuiltFile {
  modules: string[];
  imports: string[];
  dynamicImports: string[];
}
const builtFiles = JSON.parse(readFileSync(join(dist, 'modules.json'), 'utf8')) as Record<string, BuiltFile>;

/** The source without its comments, which could hold example requires (strings keep their content). */
function withoutComments(source: string): string {
  // Comments as the bundler writes them, on lines of their own: a `/*` or `//` inside a string
  // (a glob such as "dir/**" in the claude catalog) starts no comment.
  return source.replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, '').replace(/^[ \t]*\/\/.*$/gm, '');
}

/** Relative specifiers of `require('…')` with a literal, as the CommonJS bundles load each other. */
export function relativeRequires(source: string): string[] {
  const found = new Set<string>();
  for (const m of withoutComments(source).matchAll(/\brequire\(\s*['"`]([^'"`$]+)['"`]\s*\)/g))
    if (m[1]!.startsWith('.')) found.add(m[1]!);
  return [...found];
}

/**
 * Every built file reachable from `entry` (relative to dist/): loaded at once or on demand, or,
 * with `atStart`, only those loaded at once (static requires, as the command file loads).
 */
function reachableFiles(entry: string, atStart = false): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const built = builtFiles[file];
    if (!built) throw new Error(`${file} is required but is not in dist/modules.json`);
    stack.push(...built.imports.filter((f) => f in builtFiles));
    if (!atStart) stack.push(...built.dynamicImports.filter((f) => f in builtFiles));
  }
  return seen;
}

/** The source modules (relative to src/) inside the built files reachable from `entry`. */
function reachable(entry: string, atStart = false): Set<string> {
  const modules = new Set<string>();
  for (const file of reachableFiles(entry, atStart))
    for (const m of builtFiles[file]!.modules) if (m.startsWith('src/')) modules.add(m.slice('src/'.length));
  return modules;
}

/**
 * The executor and the run-log writer. Dispatch takes the executor as a parameter
 * (src/dialects/types.ts), so a read command cannot reach these even on demand.
 */
const FORBIDDEN = [/^exec\/subprocess\.ts$/, /^exec\/lookpath\.ts$/, /^ledger\/writer\.ts$/];
/**
 * Each dialect's dispatch code (src/dialects/<name>/fire.ts and what it imports). Every Dialect
 * object can dispatch, so a read command reaches it on demand; it must never load it.
 */
const DISPATCH = [/^dialects\/[^/]+\/(fire|dispatch)\.ts$/, /^dialects\/[^/]+\/dispatch\//];

describe('import graph of the read commands', () => {
  it('parses every kind of relative require, and nothing else', () => {
    const source = [
      'const a = require("./a.js");',
      "const b = require('../chunks/b-X1.js');",
      'const c = require(`./c.js`);',
      'const d = Promise.resolve().then(() => require("./chunks/d-Y2.js"));',
      'const e = require("node:fs");',
      "const f = require('@oclif/core/config');",
      'const g = require(name);',
      '// const h = require("./commented.js");',
    ].join('\n');
    expect(relativeRequires(source).sort()).toEqual(
      ['./a.js', '../chunks/b-X1.js', './c.js', './chunks/d-Y2.js'].sort(),
    );
  });

  it('dist/modules.json names exactly the files each built file requires', () => {
    for (const [file, built] of Object.entries(builtFiles)) {
      const path = join(dist, file);
      expect(existsSync(path), file).toBe(true);
      const required = relativeRequires(readFileSync(path, 'utf8')).map((spec) =>
        relative(dist, resolve(dirname(path), spec)),
      );
      const listed = [...built.imports, ...built.dynamicImports].filter((f) => f in builtFiles);
      expect(required.sort(), file).toEqual([...new Set(listed)].sort());
    }
    expect(Object.keys(builtFiles)).toContain('commands/hooks/list.js');
  });

  it('finds the runner behind `hooks fire` (so the check below can fail)', () => {
    const fire = reachable('commands/hooks/fire.js');
    expect(fire.has('exec/subprocess.ts')).toBe(true);
    expect(fire.has('ledger/writer.ts')).toBe(true);
    expect([...fire].filter((m) => DISPATCH.some((re) => re.test(m))).length).toBeGreaterThan(1);
  });

  for (const command of ['list', 'info', 'events', 'validate']) {
    it(`hooks ${command} never reaches the subprocess, LookPath or run-log writer, and loads no dispatch code`, () => {
      const modules = reachable(`commands/hooks/${command}.js`);
      expect(modules.size).toBeGreaterThan(3);
      const bad = [...modules].filter((m) => FORBIDDEN.some((re) => re.test(m)));
      expect(bad, `hooks ${command} reaches ${bad.join(', ')}`).toEqual([]);
      const atStart = reachable(`commands/hooks/${command}.js`, true);
      expect([...atStart].filter((m) => DISPATCH.some((re) => re.test(m)))).toEqual([]);
      if (command !== 'info') expect([...atStart].filter((m) => m.startsWith('ledger/'))).toEqual([]);
    });
  }

  // The `diff` package is bundled (scripts/build.mjs) into the chunk of src/edit/unified-diff.ts.
  const diffPackage = (m: string) => m.includes('node_modules/diff/');
  it('the diff package is built into the editing chunk, and only there', () => {
    const holders = Object.entries(builtFiles).filter(([, f]) => f.modules.some(diffPackage));
    // One editing chunk per bundle: the oclif path's, and the fast path's (dist/fast-chunks/).
    expect(holders.map(([file, f]) => [file.split('/')[0], f.modules.includes('src/edit/unified-diff.ts')])).toEqual([
      ['chunks', true],
      ['fast-chunks', true],
    ]);
    // No built file requires the installed package at run time (it is a dev dependency).
    const requiresDiff = Object.keys(builtFiles).filter((file) =>
      /\brequire\(\s*['"]diff(\/[^'"]*)?['"]\s*\)/.test(withoutComments(readFileSync(join(dist, file), 'utf8'))),
    );
    expect(requiresDiff).toEqual([]);
    expect(reachableFiles('commands/hooks/update.js').has(holders[0]![0])).toBe(true); // (so the check below can fail)
  });

  for (const command of ['list', 'info', 'events', 'validate', 'fire', 'runs']) {
    // At start: an edit reached on demand (the registry's dialect mutations) may load it later.
    it(`hooks ${command} does not load the diff package at start`, () => {
      const files = [...reachableFiles(`commands/hooks/${command}.js`, true)];
      expect(files.filter((f) => builtFiles[f]!.modules.some(diffPackage))).toEqual([]);
    });
  }

  it('hooks info reads runs through the ledger reader only', () => {
    expect(reachable('commands/hooks/info.js').has('ledger/reader.ts')).toBe(true);
  });
});

// The index of @oclif/core checks the Node version with semver and evaluates every export (help,
// ux, spinners, …) when imported from ESM: ~100 CommonJS modules a command run never uses
// (docs/PERFORMANCE.md). Every built module takes oclif by subpath instead.
describe('oclif is imported by subpath only', () => {
  const indexImport =
    /\bfrom\s*['"]@oclif\/core['"]|\brequire\(\s*['"]@oclif\/core['"]\s*\)|\bimport\(\s*['"]@oclif\/core['"]\s*\)/;

  it('the pattern finds an index import (so the check below can fail)', () => {
    expect(indexImport.test("import { Flags } from '@oclif/core';")).toBe(true);
    expect(indexImport.test("const { Config } = require('@oclif/core');")).toBe(true);
    expect(indexImport.test("import { Command } from '@oclif/core/command';")).toBe(false);
    expect(indexImport.test(withoutComments("// never from '@oclif/core' itself\nconst x = 1;"))).toBe(false);
  });

  it('no module in dist/ imports the @oclif/core index', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.js') && indexImport.test(withoutComments(readFileSync(path, 'utf8'))))
          offenders.push(relative(dist, path));
      }
    };
    walk(dist);
    expect(offenders).toEqual([]);
  });
});

// What a command run really loads, read off the running CLI: a preload lists require.cache when
// the process exits. src/cli/lazy-oclif.ts defers these; any static import of oclif that runs
// before the deferral is installed (as src/cli/run.ts once had) loads them all again.
describe('CommonJS modules a command run loads', () => {
  /** Sends a read command to the oclif path (bin/run.js), for the checks of its chunks. */
  const OCLIF_PATH = { HOOKCTL_NO_FAST_PATH: '1' };
  const NEVER_ON_A_RUN = [
    'ejs',
    'minimatch',
    'tinyglobby',
    'lilconfig',
    'debug',
    'semver',
    'get-package-type',
    'cli-spinners',
  ];

  async function loadedPackages(
    args: string[],
    env: Record<string, string>,
    input?: string,
  ): Promise<{ modules: string[]; builtins: string[]; code: number }> {
    const dir = tempDir('hookctl-preload-');
    const preload = join(dir, 'list-modules.cjs');
    const out = join(dir, 'modules.json');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify([Object.keys(require.cache), process.moduleLoadList])));\n`,
    );
    const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${preload}` }, input });
    const [modules, loadList] = JSON.parse(readFileSync(out, 'utf8')) as [string[], string[]];
    // Node's own modules, as `NativeModule crypto`: the ones a run compiled and ran.
    const builtins = loadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    return { modules, builtins, code: r.code };
  }
  const packageOf = (file: string): string | undefined => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];

  it('oclif --help loads the help renderer and its templates (so the check below can fail)', async () => {
    const { modules } = await loadedPackages(['hooks', 'list', '--help'], demoEnv());
    expect(modules.some((m) => m.endsWith('/@oclif/core/lib/help/index.js'))).toBe(true);
    expect(new Set(modules.map(packageOf))).toContain('ejs');
  });

  for (const args of [
    ['hooks', 'events', '-o', 'json'],
    ['hooks', 'list', '-o', 'json', '--workspace', join(demoDir, 'workspace')],
    ['hooks', 'runs', '-o', 'json'],
  ]) {
    it(`hookctl ${args.slice(0, 2).join(' ')} loads none of ${NEVER_ON_A_RUN.length} deferred packages, nor oclif's help renderer`, async () => {
      const { modules, builtins, code } = await loadedPackages(args, demoEnv());
      expect(code).toBe(0);
      // node:crypto (2 ms) is for writers: ids, hashes, temporary names.
      expect(builtins).not.toContain('crypto');
      // Output goes to the descriptor (src/cli/output.ts): no stdout stream for the pipe, so
      // neither Node's net nor its write streams; no child_process (oclif's getShell, deferred).
      // (Node's `stream` itself comes with zlib, whose crc32 checks the compile cache's entries.)
      expect(
        builtins.filter((b) => ['net', 'tty', 'internal/fs/sync_write_stream', 'child_process'].includes(b)),
      ).toEqual([]);
      // oclif's JSON reads go through a synchronous readFile (src/cli/lazy-oclif.ts ANSWERED):
      // no fs/promises, nor the readline and file-handle modules it loads.
      expect(
        builtins.filter((b) => ['fs/promises', 'internal/fs/promises', 'internal/readline/interface'].includes(b)),
      ).toEqual([]);
      // Every package require of a run is answered ahead (src/cli/resolve-shortcut.ts): Node's
      // ES resolver, which reads an `exports` map, is never loaded.
      expect(builtins).not.toContain('internal/modules/esm/resolve');
      const packages = new Set(modules.map(packageOf));
      expect(NEVER_ON_A_RUN.filter((p) => packages.has(p))).toEqual([]);
      expect(modules.filter((m) => m.endsWith('/@oclif/core/lib/help/index.js'))).toEqual([]);
      // And, read off the run itself, none of the built files it loaded holds the hook runner.
      const sources = loadedSources(modules);
      expect(sources.size).toBeGreaterThan(3);
      expect([...sources].filter((m) => FORBIDDEN.some((re) => re.test(m)))).toEqual([]);
      expect([...sources].filter((m) => DISPATCH.some((re) => re.test(m)))).toEqual([]);
      expect(sources.has('edit/unified-diff.ts')).toBe(false);
    });
  }

  it('an edit --dry-run loads the diff and node:crypto (so the checks above can fail)', async () => {
    const { modules, builtins, code } = await loadedPackages(
      [
        'hooks',
        'update',
        'block-secret-file-edits',
        '--timeout',
        '9s',
        '--dry-run',
        '--workspace',
        join(demoDir, 'workspace'),
      ],
      demoEnv(),
    );
    expect(code).toBe(0);
    expect(loadedSources(modules).has('edit/unified-diff.ts')).toBe(true);
    expect(builtins).toContain('crypto');
  });

  for (const args of [
    ['hooks', 'info', 'prompt-style', '-o', 'json'],
    ['hooks', 'validate', '-o', 'json'],
  ]) {
    it(`hookctl ${args.slice(0, 2).join(' ')} loads neither the hook runner nor dispatch code`, async () => {
      const { modules } = await loadedPackages([...args, '--workspace', join(demoDir, 'workspace')], demoEnv());
      const sources = loadedSources(modules);
      expect(sources.size).toBeGreaterThan(3);
      expect([...sources].filter((m) => FORBIDDEN.some((re) => re.test(m)))).toEqual([]);
      expect([...sources].filter((m) => DISPATCH.some((re) => re.test(m)))).toEqual([]);
    });
  }

  it('hookctl hooks fire loads the hook runner (so the check above can fail)', async () => {
    const { modules } = await loadedPackages(
      [
        'hooks',
        'fire',
        'session.post_create',
        '--dry-run',
        '--payload',
        '-',
        '-o',
        'json',
        '--workspace',
        join(demoDir, 'workspace'),
      ],
      demoEnv(),
      '{}',
    );
    expect(loadedSources(modules).has('dialects/compozy/dispatch/dispatch.ts')).toBe(true);
  });

  // A dialect's loaders and rules load only when a command reads that dialect (issue 12).
  const LOADERS: Record<string, RegExp> = {
    compozy: /^dialects\/compozy\/(sources|rules)\//,
    cosh: /^dialects\/cosh\/(load|config|extension|hook|states|json)\.ts$/,
    // Only when one of the folders it reads exists (the demo's homes have none).
    claude: /^dialects\/claude\/sources\/(load|settings|handlers|plugins|front-matter|declaration)\.ts$/,
  };
  const loadersIn = (sources: Set<string>) =>
    Object.keys(LOADERS).filter((d) => [...sources].some((m) => LOADERS[d]!.test(m)));

  for (const [args, input, read] of [
    [['hooks', 'list', '-o', 'json'], undefined, ['compozy', 'cosh']],
    [['hooks', 'list', '--dialect', 'cosh', '-o', 'json'], undefined, ['cosh']],
    [['hooks', 'list', '--dialect', 'compozy', '-o', 'json'], undefined, ['compozy']],
    [['hooks', 'fire', 'PreToolUse', '--dry-run', '--payload', '-', '-o', 'json'], '{}', ['cosh']],
    [['hooks', 'fire', 'session.post_create', '--dry-run', '--payload', '-', '-o', 'json'], '{}', ['compozy']],
    [['hooks', 'events', '-o', 'json'], undefined, []],
  ] as const) {
    it(`hookctl ${args.join(' ')} loads the loaders of ${read.length ? read.join(' and ') : 'no dialect'} only`, async () => {
      // The oclif path's chunks; the fast path has compozy's and cosh's readers in its one file.
      const { modules, code } = await loadedPackages(
        [...args, '--workspace', join(demoDir, 'workspace')],
        demoEnv(OCLIF_PATH),
        input,
      );
      expect(code).toBe(0);
      expect(loadersIn(loadedSources(modules))).toEqual(read);
    });
  }

  it('hookctl hooks list loads the claude loader once a Claude Code folder exists (so the check above can fail)', async () => {
    const claudeHome = join(demoDir, 'claude', 'home', '.claude');
    const { modules, code } = await loadedPackages(
      ['hooks', 'list', '-o', 'json', '--workspace', join(demoDir, 'workspace')],
      demoEnv({ CLAUDE_CONFIG_DIR: claudeHome, ...OCLIF_PATH }),
    );
    expect(code).toBe(0);
    expect(loadersIn(loadedSources(modules))).toEqual(['compozy', 'cosh', 'claude']);
  });

  it('a run loads no ES module: everything it runs can be served by the compile cache', async () => {
    const { modules, code } = await loadedPackages(['hooks', 'events', '-o', 'json'], demoEnv(OCLIF_PATH));
    expect(code).toBe(0);
    expect(modules.some((m) => m.endsWith('/dist/commands/hooks/events.js'))).toBe(true); // loaded as CommonJS
  });

  // The fast path of the read commands (issue 25): one built file, no oclif at all.
  for (const args of [
    ['hooks', 'list', '-o', 'json', '--workspace', join(demoDir, 'workspace')],
    ['hooks', 'list', '--dialect', 'cosh'],
    ['hooks', 'info', 'prompt-style', '--workspace', join(demoDir, 'workspace')],
    ['hooks', 'runs', '--stats', '--all-sessions'],
    ['hooks', 'events', '--family', 'tool', '-o', 'json'],
  ]) {
    // (One event in detail also loads its dialect's detail and schemas, a chunk of its own.)
    it(`hookctl ${args.join(' ')} runs from dist/fast-main.js alone and loads no @oclif/core`, async () => {
      const { modules } = await loadedPackages(args, demoEnv());
      const ours = modules.filter((m) => m.startsWith(repoRoot + '/'));
      expect(ours.filter((m) => m.includes('/node_modules/@oclif/'))).toEqual([]);
      // (Not rolldown's runtime chunk either: the build fails if boot.js needs it.)
      const files = ours.map((m) => relative(repoRoot, m)).filter((m) => !m.startsWith('node_modules/'));
      expect(files.sort()).toEqual(['bin/run.js', 'dist/cli/boot.js', 'dist/fast-main.js']);
      const sources = loadedSources(modules);
      expect([...sources].filter((m) => FORBIDDEN.some((re) => re.test(m)))).toEqual([]);
      expect(sources.has('cli/bodies/list.ts')).toBe(true);
    });
  }

  for (const args of [
    ['hooks', 'events'],
    ['hooks', 'list', '--all', '--workspace', join(demoDir, 'workspace')],
  ]) {
    it(`hookctl ${args.slice(0, 2).join(' ')} (a table, piped) creates no stdout stream to read the terminal's width`, async () => {
      const { builtins, code } = await loadedPackages(args, demoEnv());
      expect(code).toBe(0);
      expect(builtins.filter((b) => ['net', 'tty'].includes(b))).toEqual([]);
    });
  }

  for (const args of [
    ['hooks', 'list', '-o', 'json', '--workspace', join(demoDir, 'workspace')],
    ['hooks', 'info', 'prompt-style', '--workspace', join(demoDir, 'workspace')],
    ['hooks', 'runs'],
    ['hooks', 'events'],
  ]) {
    it(`hookctl ${args.slice(0, 2).join(' ')} loads neither node:module (and Node's ES module loader) nor node:os`, async () => {
      // The build requires them where they are used (scripts/build.mjs); the cache does not need them.
      const { builtins, code } = await loadedPackages(args, demoEnv());
      expect(code).toBe(0);
      expect(builtins.filter((b) => ['module', 'os', 'internal/modules/esm/loader'].includes(b))).toEqual([]);
    });
  }

  it('a handed-over invocation loads node:module (so the check above can fail)', async () => {
    const { builtins } = await loadedPackages(['hooks', 'sessions'], demoEnv());
    expect(builtins).toContain('module');
  });

  it('a handed-over invocation loads oclif as before (so the check above can fail)', async () => {
    const { modules } = await loadedPackages(['hooks', 'list', '--bogus'], demoEnv());
    expect(modules.some((m) => m.includes('/node_modules/@oclif/core/'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/dist/fast-main.js'))).toBe(false);
  });
});

/** Source modules (relative to src/) of the built files among `loaded` (require.cache keys). */
function loadedSources(loaded: string[]): Set<string> {
  const sources = new Set<string>();
  for (const file of loaded) {
    if (!file.startsWith(dist + '/')) continue;
    for (const m of builtFiles[relative(dist, file)]?.modules ?? []) if (m.startsWith('src/')) sources.add(m.slice(4));
  }
  return sources;
}

// oclif's getPlatform imports wsl-utils (six ES modules and is-wsl's probing) on every run;
// src/cli/run.ts answers it without the import where is-wsl would say "not WSL".
describe.skipIf(process.platform !== 'linux')('ES modules a command run loads', () => {
  it('NODE_DEBUG=esm names wsl-utils when it is imported (so the check below can fail)', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['-e', "import('wsl-utils')"], {
      cwd: repoRoot,
      env: { ...process.env, NODE_DEBUG: 'esm' },
      encoding: 'utf8',
    });
    expect(r.stderr).toContain('wsl-utils');
  });

  it('hooks events imports no ES module at all on Linux (wsl-utils included)', async () => {
    const r = await runCli(['hooks', 'events', '-o', 'json'], { env: demoEnv({ NODE_DEBUG: 'esm' }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('prompt.post_assemble');
    expect(r.stderr).not.toContain('file://');
    expect(r.stderr).not.toContain('wsl-utils');
  });
});
