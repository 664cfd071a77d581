// The generated catalogs are built on first use, not when dist/fast-main.js loads (issue 25): each
// table is a function that creates its literal on its first call (scripts/lib/generated.mjs
// lazyTable), and so are the maps derived from them. A table read at the top level of any module
// (a `const BY_NAME = new Map(tableFn().map(…))`) would build it on every start again, and a
// command that never reads a dialect would pay for its catalog: `hooks list` in a workspace with
// no Claude Code or Codex file must build neither dialect's tables.
//
// How: a preload compiles dist/fast-main.js itself, each table function made to record its call,
// and puts it in require's cache, where bin/run.js's loader finds it (src/cli/compile-cache.ts
// loadFromCache). It writes what was built once the file had loaded, and what by the end of the run.
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, repoRoot, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const fastMain = realpathSync(join(repoRoot, 'dist', 'fast-main.js'));

/** The table functions the generators emit (`return (cachedX ??= …)`), by generated file. */
function generatedTables(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.generated.ts')) {
        const text = readFileSync(path, 'utf8');
        const names = [...text.matchAll(/^export function (\w+)\(\): [^\n]+\{\n {2}return \(cached\w+ \?\?=/gm)];
        if (names.length > 0)
          out.set(
            relative(repoRoot, path),
            names.map((m) => m[1]!),
          );
      }
    }
  };
  walk(join(repoRoot, 'src'));
  return out;
}

const tables = generatedTables();
const source = readFileSync(fastMain, 'utf8');
/** The tables the fast path's file holds (an unused one, such as compozy's adjustments, is left out of it). */
const inFastMain = [...tables.values()].flat().filter((name) => source.includes(`function ${name}() {`));

interface Built {
  atLoad: string[];
  atExit: string[];
}

async function tablesBuilt(args: string[], env: Record<string, string>): Promise<Built & { code: number }> {
  const dir = tempDir('hookctl-lazy-');
  const preload = join(dir, 'record-tables.cjs');
  const out = join(dir, 'built.json');
  writeFileSync(
    preload,
    [
      "'use strict';",
      "const Module = require('node:module');",
      "const fs = require('node:fs');",
      "const path = require('node:path');",
      `const file = ${JSON.stringify(fastMain)};`,
      `const names = ${JSON.stringify(inFastMain)};`,
      "let text = fs.readFileSync(file, 'utf8');",
      'for (const name of names) {',
      '  const head = `function ${name}() {`;',
      "  if (text.split(head).length !== 2) throw new Error('not once in fast-main.js: ' + head);",
      '  text = text.replace(head, `${head} globalThis.__hookctlTablesBuilt.add(${JSON.stringify(name)});`);',
      '}',
      'const built = (globalThis.__hookctlTablesBuilt = new Set());',
      'const mod = new Module(file, module);',
      'mod.filename = file;',
      'mod.paths = Module._nodeModulePaths(path.dirname(file));',
      'Module._cache[file] = mod;',
      'mod._compile(text, file);',
      'mod.loaded = true;',
      'const atLoad = [...built];',
      `process.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify({ atLoad, atExit: [...built] })));`,
      '',
    ].join('\n'),
  );
  const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${preload}` } });
  let built: Built;
  try {
    built = JSON.parse(readFileSync(out, 'utf8')) as Built;
  } catch {
    throw new Error(`no record of the run (exit ${r.code}): ${r.stderr}`);
  }
  return { ...built, code: r.code };
}

const claudeOrCodex = (names: string[]) => names.filter((n) => /^(claude|codex)/.test(n));
const workspace = ['--workspace', join(demoDir, 'workspace')];

describe('generated catalogs are built on first use', () => {
  it("finds every dialect's tables in the generators' output and in dist/fast-main.js", () => {
    expect([...tables.keys()].sort()).toEqual([
      'src/dialects/claude/catalog.generated.ts',
      'src/dialects/codex/catalog.generated.ts',
      'src/dialects/compozy/releases.generated.ts',
    ]);
    expect(inFastMain).toEqual(
      expect.arrayContaining([
        'claudeCatalogEvents',
        'claudeCatalogMeta',
        'codexCatalogEvents',
        'codexCatalogMeta',
        'compozyVersionedReleases',
        'compozyVersionedFamilies',
        'compozyVersionedEvents',
      ]),
    );
  });

  it("hooks events builds every dialect's tables, after loading (so the checks below can fail)", async () => {
    const { atLoad, atExit, code } = await tablesBuilt(['hooks', 'events', '-o', 'json'], demoEnv());
    expect(code).toBe(0);
    expect(atLoad).toEqual([]);
    // (Rows of the newest release need the events only, not the rest of either catalog.)
    expect(claudeOrCodex(atExit).sort()).toEqual(['claudeCatalogEvents', 'codexCatalogEvents']);
  });

  for (const args of [
    ['hooks', 'list', '-o', 'json', ...workspace],
    ['hooks', 'list', ...workspace],
    ['hooks', 'info', 'prompt-style', ...workspace],
    ['hooks', 'runs'],
  ]) {
    it(`hookctl ${args.slice(0, 3).join(' ')}: nothing built at load, neither Claude Code's nor Codex's tables without their files`, async () => {
      const { atLoad, atExit, code } = await tablesBuilt(args, demoEnv());
      expect(code).toBe(0);
      expect(atLoad).toEqual([]);
      expect(claudeOrCodex(atExit)).toEqual([]);
      // The demo's hooks are compozy's and cosh's: listing them reads compozy's catalog.
      if (args[1] !== 'runs') expect(atExit).toContain('compozyVersionedEvents');
    });
  }

  it("hooks list builds claude's tables once a Claude Code folder exists, and still not codex's", async () => {
    const { atLoad, atExit, code } = await tablesBuilt(
      ['hooks', 'list', '-o', 'json', ...workspace],
      demoEnv({ CLAUDE_CONFIG_DIR: join(demoDir, 'claude', 'home', '.claude') }),
    );
    expect(code).toBe(0);
    expect(atLoad).toEqual([]);
    expect(claudeOrCodex(atExit).filter((n) => n.startsWith('codex'))).toEqual([]);
    expect(atExit).toContain('claudeCatalogEvents');
  });
});
