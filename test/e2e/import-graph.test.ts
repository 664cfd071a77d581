// The read commands never load the code that runs hooks or writes run records (SPEC §7: fast
// start; issue 2: "list, info, events and validate do not import the subprocess or run-log
// code"). Follows every relative static and dynamic import of the BUILT command modules.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, repoRoot, runCli } from '../support/cli.js';

const dist = join(repoRoot, 'dist');

/** Relative specifiers of `import … from`, `export … from`, `import '…'` and `import('…')` with a literal. */
/** The source without its comments, which could hold example imports (strings keep their content). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
}

export function relativeSpecifiers(source: string): string[] {
  const code = withoutComments(source);
  const found = new Set<string>();
  const patterns = [
    /\bimport\s+(?:type\s+)?[\w*{}\s,$]+?\s+from\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`$]+)['"`]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) if (m[1]!.startsWith('.')) found.add(m[1]!);
  return [...found];
}

/** Every module reachable from `entry`, as paths relative to dist/. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [resolve(entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    const key = relative(dist, file);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!existsSync(file)) throw new Error(`${key} is imported but does not exist`);
    for (const spec of relativeSpecifiers(readFileSync(file, 'utf8'))) {
      if (spec.endsWith('.json')) continue;
      stack.push(resolve(dirname(file), spec));
    }
  }
  return seen;
}

const FORBIDDEN = [/^exec\/subprocess\.js$/, /^exec\/lookpath\.js$/, /^ledger\/writer\.js$/, /^dispatch\//];

describe('import graph of the read commands', () => {
  it('parses every kind of relative import, and nothing else', () => {
    const source = [
      "import { a } from './a.js';",
      "import * as b from '../b.js';",
      "import c, { d } from './c.js';",
      "import type { T } from './types.js';",
      "export { e } from './e.js';",
      "export * from './f.js';",
      "export * as g from './g.js';",
      "import './side-effect.js';",
      "const h = await import('./h.js');",
      'const [i, j] = await Promise.all([import("./i.js"), import(`./j.js`)]);',
      "import { parse } from 'smol-toml';",
      "const k = await import('node:fs');",
      'const dynamic = await import(name);',
      '// import { x } from "./commented.js";',
    ].join('\n');
    expect(relativeSpecifiers(source).sort()).toEqual(
      [
        './a.js',
        '../b.js',
        './c.js',
        './types.js',
        './e.js',
        './f.js',
        './g.js',
        './side-effect.js',
        './h.js',
        './i.js',
        './j.js',
      ].sort(),
    );
  });

  it('finds the runner behind `hooks fire` (so the check below can fail)', () => {
    const fire = reachable(join(dist, 'commands', 'hooks', 'fire.js'));
    expect([...fire].some((m) => m === 'exec/subprocess.js')).toBe(true);
    expect([...fire].some((m) => m === 'ledger/writer.js')).toBe(true);
  });

  for (const command of ['list', 'info', 'events', 'validate']) {
    it(`hooks ${command} never reaches the subprocess, LookPath, run-log writer or dispatch code`, () => {
      const modules = reachable(join(dist, 'commands', 'hooks', `${command}.js`));
      expect(modules.size).toBeGreaterThan(3);
      const bad = [...modules].filter((m) => FORBIDDEN.some((re) => re.test(m)));
      expect(bad, `hooks ${command} reaches ${bad.join(', ')}`).toEqual([]);
      if (command !== 'info') expect([...modules].filter((m) => m.startsWith('ledger/'))).toEqual([]);
    });
  }

  it('hooks info reads runs through the ledger reader only', () => {
    const modules = reachable(join(dist, 'commands', 'hooks', 'info.js'));
    expect(modules.has('ledger/reader.js')).toBe(true);
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
  ): Promise<{ modules: string[]; code: number }> {
    const dir = mkdtempSync(join(tmpdir(), 'hookctl-preload-'));
    const preload = join(dir, 'list-modules.cjs');
    const out = join(dir, 'modules.json');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${preload}` } });
    return { modules: JSON.parse(readFileSync(out, 'utf8')) as string[], code: r.code };
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
    ['hooks', 'runs', '--session', 'none-such', '-o', 'json'],
  ]) {
    it(`hookctl ${args.slice(0, 2).join(' ')} loads none of ${NEVER_ON_A_RUN.length} deferred packages, nor oclif's help renderer`, async () => {
      const { modules, code } = await loadedPackages(args, demoEnv());
      expect(code).toBe(0);
      const packages = new Set(modules.map(packageOf));
      expect(NEVER_ON_A_RUN.filter((p) => packages.has(p))).toEqual([]);
      expect(modules.filter((m) => m.endsWith('/@oclif/core/lib/help/index.js'))).toEqual([]);
    });
  }
});

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

  it('hooks events does not import wsl-utils on Linux', async () => {
    const r = await runCli(['hooks', 'events', '-o', 'json'], { env: demoEnv({ NODE_DEBUG: 'esm' }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('dist/commands/hooks/events.js'); // the debug output is there
    expect(r.stderr).not.toContain('wsl-utils');
  });
});
