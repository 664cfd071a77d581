// The compile cache of the built CLI (src/cli/compile-cache.ts): each case runs fresh Node
// processes, because a module is compiled once per process.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { beforeEach, describe, expect, it } from 'vitest';
import { binPath, demoDir, demoEnv, isolatedEnv, repoRoot, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

// dist/cli/boot.js holds the cache (src/cli/compile-cache.ts) and exports it.
const cacheModule = join(repoRoot, 'dist', 'cli', 'boot.js');
let scratch: string;

beforeEach(() => {
  scratch = tempDir('hookctl-compile-cache-test-');
});

/** Runs `node` on a script that enables the cache, requires `module` and prints what both did. */
function load(module: string, env: Record<string, string | undefined>) {
  const script = join(scratch, 'load.cjs');
  writeFileSync(
    script,
    `const state = require(${JSON.stringify(cacheModule)}).enableCompileCache(module.constructor);
const value = require(${JSON.stringify(module)});
process.stdout.write(JSON.stringify({ value, state: { ...state } }));\n`,
  );
  const r = spawnSync(process.execPath, [script], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as {
    value: unknown;
    state: { dir?: string; off?: string; hits: number; misses: number; rejected: number; uncached?: number };
  };
}

/** Entries under the cache folder (one folder per Node version inside); not the answer cache's. */
function entries(base: string): string[] {
  return readdirSync(base).flatMap((v) =>
    readdirSync(join(base, v))
      .filter((f) => !f.startsWith('answer-'))
      .map((f) => join(v, f)),
  );
}

describe('compile cache', () => {
  it('a module kept under variants has one entry per variant, each made and then hit by its own runs', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'answer.cjs');
    writeFileSync(module, 'module.exports = 6 * 7;\n');
    const script = join(scratch, 'variant.cjs');
    writeFileSync(
      script,
      `const state = require(${JSON.stringify(cacheModule)}).enableCompileCache(module.constructor);
require(${JSON.stringify(cacheModule)}).cacheVariant(${JSON.stringify(module)}, process.argv[2]);
const value = require(${JSON.stringify(module)});
process.stdout.write(JSON.stringify({ value, state: { ...state } }));\n`,
    );
    const run = (variant: string) => {
      const r = spawnSync(process.execPath, [script, variant], {
        env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout) as { value: number; state: { hits: number; misses: number } };
    };
    expect(run('hooks:list').state).toMatchObject({ hits: 0, misses: 1 });
    expect(run('hooks:events').state).toMatchObject({ hits: 0, misses: 1 }); // not list's entry
    expect(run('hooks:list')).toMatchObject({ value: 42, state: { hits: 1, misses: 0 } });
    expect(run('hooks:events')).toMatchObject({ value: 42, state: { hits: 1, misses: 0 } });
    expect(
      entries(cache)
        .map((e) => e.split('/').pop()!.split('.').slice(0, 3).join('.'))
        .sort(),
    ).toEqual(['answer.cjs.hooks-events', 'answer.cjs.hooks-list']);
  });

  it('checks its entries without loading node:zlib, and prints nothing under --pending-deprecation --throw-deprecation', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'answer.cjs');
    writeFileSync(module, 'module.exports = 42;\n');
    const script = join(scratch, 'zlib.cjs');
    writeFileSync(
      script,
      `const state = require(${JSON.stringify(cacheModule)}).enableCompileCache(module.constructor);
require(${JSON.stringify(module)});
const loaded = process.moduleLoadList.filter((m) => /^NativeModule (zlib|stream)$/.test(m));
process.stdout.write(JSON.stringify({ loaded, state: { ...state } }));\n`,
    );
    const run = () => {
      const r = spawnSync(process.execPath, ['--pending-deprecation', '--throw-deprecation', script], {
        env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      return JSON.parse(r.stdout) as { loaded: string[]; state: { hits: number; misses: number } };
    };
    expect(run().state).toMatchObject({ misses: 1 }); // written: a checksum made
    const second = run();
    expect(second.state).toMatchObject({ hits: 1, misses: 0 }); // read: a checksum checked
    // node:zlib would bring node:stream and its 18 modules into every start (docs/PERFORMANCE.md).
    expect(second.loaded).toEqual([]);
  });

  it('a second run takes the module from the cache, and it runs the same', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'answer.cjs');
    writeFileSync(module, 'module.exports = [1, 2, 3].map((n) => n * 14).join(",");\n');
    const first = load(module, { NODE_COMPILE_CACHE: cache });
    expect(first.state).toMatchObject({ hits: 0, misses: 1, rejected: 0 });
    expect(entries(cache)).toHaveLength(1);
    const second = load(module, { NODE_COMPILE_CACHE: cache });
    expect(second.state).toMatchObject({ hits: 1, misses: 0, rejected: 0 });
    expect(second.value).toBe('14,28,42');
    expect(second.value).toBe(first.value);
  });

  it('only a run with an entry to write listens for exit: a run served wholly from the cache adds no listener', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'answer.cjs');
    writeFileSync(module, 'module.exports = 6 * 7;\n');
    const script = join(scratch, 'listeners.cjs');
    writeFileSync(
      script,
      `const before = process.listenerCount('exit');
const state = require(${JSON.stringify(cacheModule)}).enableCompileCache(module.constructor);
require(${JSON.stringify(module)});
process.stdout.write(JSON.stringify({ added: process.listenerCount('exit') - before, hits: state.hits }));\n`,
    );
    const run = () => {
      const r = spawnSync(process.execPath, [script], {
        env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout) as { added: number; hits: number };
    };
    // The miss listens, to write its entry at exit; the hit that follows has nothing to write.
    expect(run()).toEqual({ added: 1, hits: 0 });
    expect(entries(cache)).toHaveLength(1);
    expect(run()).toEqual({ added: 0, hits: 1 });
  });

  it('a changed file of the same length is compiled again, never run from the old code', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'word.cjs');
    writeFileSync(module, 'module.exports = "old";\n');
    expect(load(module, { NODE_COMPILE_CACHE: cache }).value).toBe('old');
    // V8 itself compares only the length of the source with its cache.
    writeFileSync(module, 'module.exports = "new";\n');
    const changed = load(module, { NODE_COMPILE_CACHE: cache });
    expect(changed.value).toBe('new');
    expect(changed.state).toMatchObject({ hits: 0, rejected: 1 });
    expect(load(module, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ hits: 1 }); // rewritten
  });

  it('a change of one non-ASCII character to another of the same UTF-8 length is seen, and an unchanged one is a hit', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'accent.cjs');
    writeFileSync(module, 'module.exports = "café 😀";\n');
    expect(load(module, { NODE_COMPILE_CACHE: cache }).value).toBe('café 😀');
    expect(load(module, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ hits: 1, rejected: 0 });
    writeFileSync(module, 'module.exports = "cafè 😀";\n');
    const changed = load(module, { NODE_COMPILE_CACHE: cache });
    expect(changed.value).toBe('cafè 😀');
    expect(changed.state).toMatchObject({ hits: 0, rejected: 1 });
  });

  it('a broken entry is ignored and made again', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'sum.cjs');
    writeFileSync(module, 'module.exports = 20 + 22;\n');
    load(module, { NODE_COMPILE_CACHE: cache });
    const [entry] = entries(cache);
    for (const junk of [Buffer.alloc(0), Buffer.from([1, 2]), Buffer.alloc(200, 0xff)]) {
      writeFileSync(join(cache, entry!), junk);
      const r = load(module, { NODE_COMPILE_CACHE: cache });
      expect(r.value).toBe(42);
      expect(r.state).toMatchObject({ hits: 0, rejected: 1 });
    }
    expect(load(module, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ hits: 1 });
  });

  it('entries of modules that are gone, and old temporary files, are removed when a run writes', () => {
    const cache = join(scratch, 'cache');
    const gone = join(scratch, 'gone.cjs');
    const kept = join(scratch, 'kept.cjs');
    writeFileSync(gone, 'module.exports = "gone";\n');
    writeFileSync(kept, 'module.exports = "kept";\n');
    load(gone, { NODE_COMPILE_CACHE: cache });
    load(kept, { NODE_COMPILE_CACHE: cache });
    expect(entries(cache)).toHaveLength(2);
    const [version] = readdirSync(cache);
    const oldTemp = join(cache, version!, 'x.v8.123.0.tmp');
    const newTemp = join(cache, version!, 'y.v8.456.0.tmp');
    writeFileSync(oldTemp, '');
    writeFileSync(newTemp, '');
    utimesSync(oldTemp, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
    rmSync(gone);
    // A run served wholly from the cache writes nothing and prunes nothing.
    expect(load(kept, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ hits: 1, misses: 0 });
    expect(entries(cache)).toHaveLength(4);
    const fresh = join(scratch, 'fresh.cjs');
    writeFileSync(fresh, 'module.exports = "fresh";\n');
    expect(load(fresh, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ misses: 1 });
    const left = entries(cache).map((e) => e.split('/')[1]!);
    expect(left.filter((e) => e.startsWith('gone.cjs.'))).toEqual([]);
    expect(left.filter((e) => e.startsWith('kept.cjs.'))).toHaveLength(1);
    expect(left.filter((e) => e.startsWith('fresh.cjs.'))).toHaveLength(1);
    expect(left).not.toContain('x.v8.123.0.tmp');
    expect(left).toContain('y.v8.456.0.tmp'); // may be a writer at work
    expect(load(kept, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ hits: 1 });
  });

  it('a folder others can write to, a symbolic link or a file is never used', () => {
    const module = join(scratch, 'one.cjs');
    writeFileSync(module, 'module.exports = 1;\n');
    const open = join(scratch, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(load(module, { NODE_COMPILE_CACHE: open }).state.off).toMatch(/writable by others/);
    expect(readdirSync(open)).toEqual([]);
    const real = join(scratch, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(scratch, 'link'));
    expect(load(module, { NODE_COMPILE_CACHE: join(scratch, 'link') }).state.off).toMatch(/not a folder/);
    expect(readdirSync(real)).toEqual([]);
    writeFileSync(join(scratch, 'file'), '');
    expect(load(module, { NODE_COMPILE_CACHE: join(scratch, 'file') }).state.off).toBeDefined();
    expect(load(module, { NODE_COMPILE_CACHE: join(scratch, 'file') }).value).toBe(1);
    // A folder under a file (ENOTDIR, not ENOENT): off, with the reason, never a crash.
    expect(load(module, { NODE_COMPILE_CACHE: join(scratch, 'file', 'sub') }).state.off).toMatch(/ENOTDIR/);
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'two.cjs');
    writeFileSync(module, 'module.exports = 2;\n');
    const r = load(module, { NODE_COMPILE_CACHE: cache, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.state.off).toMatch(/NODE_DISABLE_COMPILE_CACHE/);
    expect(r.value).toBe(2);
    expect(() => readdirSync(cache)).toThrow();
  });

  it('the CLI caches its own modules and oclif, in a folder only the user can read, with the same output', async () => {
    const cache = join(scratch, 'cli-cache');
    const args = ['hooks', 'events', '-o', 'json'];
    // The oclif path (the fast path, below, loads no oclif).
    const env = demoEnv({ NODE_COMPILE_CACHE: cache, HOOKCTL_NO_FAST_PATH: '1' });
    const cold = await runCli(args, { env });
    const made = entries(cache);
    expect(made.some((e) => e.includes('/events.js.'))).toBe(true); // dist/commands/hooks/events.js
    expect(made.some((e) => e.includes('/config.js.'))).toBe(true); // @oclif/core/lib/config/config.js
    expect(made.length).toBeGreaterThan(30);
    expect(statSync(join(cache, made[0]!.split('/')[0]!)).mode & 0o077).toBe(0);
    expect(statSync(join(cache, made[0]!)).mode & 0o077).toBe(0);
    const times = made.map((e) => statSync(join(cache, e)).mtimeMs);
    const warm = await runCli(args, { env });
    // Every entry was used as it was: a rejected or missing one would have been written again.
    expect(entries(cache)).toEqual(made);
    expect(made.map((e) => statSync(join(cache, e)).mtimeMs)).toEqual(times);
    const off = await runCli(args, { env: demoEnv({ NODE_DISABLE_COMPILE_CACHE: '1' }) });
    expect([cold.code, warm.code, off.code]).toEqual([0, 0, 0]);
    expect(warm.stdout).toBe(cold.stdout);
    expect(off.stdout).toBe(cold.stdout);
    expect(warm.stderr).toBe('');
  });

  it("the fast path's one file has an entry of its own, used as it was on the next run (issue 25)", async () => {
    const cache = join(scratch, 'fast-cache');
    const args = ['hooks', 'events', '-o', 'json'];
    const cold = await runCli(args, { env: demoEnv({ NODE_COMPILE_CACHE: cache }) });
    const made = entries(cache);
    // (dist/cli/boot.js installs the cache, so it is compiled on every start and has no entry.)
    expect(made.filter((e) => /\/(fast-main|boot)\.js\./.test(e))).toEqual([
      expect.stringMatching(/\/fast-main\.js\.hooks-events\./),
    ]);
    expect(made.some((e) => e.includes('/config.js.'))).toBe(false); // no oclif
    const times = made.map((e) => statSync(join(cache, e)).mtimeMs);
    const warm = await runCli(args, { env: demoEnv({ NODE_COMPILE_CACHE: cache }) });
    expect(entries(cache)).toEqual(made);
    expect(made.map((e) => statSync(join(cache, e)).mtimeMs)).toEqual(times);
    expect([cold.code, warm.code]).toEqual([0, 0]);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stderr).toBe('');
  });
});

/**
 * Runs `node` on a script that enables the cache, loads `module` with loadFromCache (as boot.js
 * loads dist/fast-main.js) and then with require() of its real path, and prints what it saw.
 */
function loadDirect(module: string, env: Record<string, string | undefined>) {
  const script = join(scratch, 'direct.cjs');
  writeFileSync(
    script,
    `const cache = require(${JSON.stringify(cacheModule)});
const state = cache.enableCompileCache(module.constructor);
const direct = cache.loadFromCache(module, ${JSON.stringify(module)}, 'hooks:list');
const again = require(require('node:fs').realpathSync(${JSON.stringify(module)}));
process.stdout.write(JSON.stringify({ value: direct.value, same: direct === again, state: { ...state } }));\n`,
  );
  const r = spawnSync(process.execPath, [script], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as {
    value: unknown;
    same: boolean;
    state: { hits: number; misses: number; rejected: number };
  };
}

describe("compile cache: loadFromCache (the fast path's one file, loaded by its bytes)", () => {
  it('is served from its entry on the next run, and is the module a require() of its real path gets', () => {
    const cache = join(scratch, 'cache');
    const real = join(scratch, 'real');
    mkdirSync(real);
    const module = join(real, 'main.cjs');
    writeFileSync(module, 'exports.value = [6, 7].reduce((a, b) => a * b);\n');
    // Through a symbolic link, as an installed bin may be reached: the module is keyed by its real
    // path, so a chunk requiring it gets this module, not a second copy.
    symlinkSync(real, join(scratch, 'link'));
    const linked = join(scratch, 'link', 'main.cjs');
    expect(loadDirect(linked, { NODE_COMPILE_CACHE: cache })).toEqual({
      value: 42,
      same: true,
      state: expect.objectContaining({ hits: 0, misses: 1 }),
    });
    expect(entries(cache).map((e) => e.split('/').pop()!.split('.').slice(0, 3).join('.'))).toEqual([
      'main.cjs.hooks-list',
    ]);
    expect(loadDirect(linked, { NODE_COMPILE_CACHE: cache })).toEqual({
      value: 42,
      same: true,
      state: expect.objectContaining({ hits: 1, misses: 0, rejected: 0 }),
    });
  });

  it('a changed file of the same length is compiled again, never run from the old code', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'word.cjs');
    writeFileSync(module, 'exports.value = "old";\n');
    expect(loadDirect(module, { NODE_COMPILE_CACHE: cache }).value).toBe('old');
    writeFileSync(module, 'exports.value = "new";\n');
    const changed = loadDirect(module, { NODE_COMPILE_CACHE: cache });
    expect(changed).toMatchObject({ value: 'new', state: { hits: 0, rejected: 1 } });
    expect(loadDirect(module, { NODE_COMPILE_CACHE: cache })).toMatchObject({ value: 'new', state: { hits: 1 } });
  });

  it('a file that is not pure ASCII is left to require(), and still cached and right', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'accent.cjs');
    writeFileSync(module, 'exports.value = "café";\n');
    expect(loadDirect(module, { NODE_COMPILE_CACHE: cache })).toMatchObject({ value: 'café', same: true });
    expect(loadDirect(module, { NODE_COMPILE_CACHE: cache })).toMatchObject({ value: 'café', state: { hits: 1 } });
  });

  it('with the cache off it is require()', () => {
    const module = join(scratch, 'plain.cjs');
    writeFileSync(module, 'exports.value = 7;\n');
    expect(loadDirect(module, { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({
      value: 7,
      same: true,
      state: expect.objectContaining({ hits: 0, misses: 0 }),
    });
  });
});

describe('compile cache and dynamic import()', () => {
  it('a module that calls import() works on every run, with no warning, and is left to Node', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'dynamic.cjs');
    // `import (`, across a comment: every spelling of the call is recognised.
    writeFileSync(
      module,
      'module.exports = import(/* a */ "node:path").then((m) => typeof m.join) && import\n("node:os").then(() => 1);\n',
    );
    for (let run = 1; run <= 3; run++) {
      const r = load(module, { NODE_COMPILE_CACHE: cache });
      expect(r.state).toMatchObject({ hits: 0, misses: 0, uncached: 1 });
    }
    expect(entries(cache)).toEqual([]);
    const script = join(scratch, 'await.cjs');
    writeFileSync(
      script,
      `require(${JSON.stringify(cacheModule)}).enableCompileCache(module.constructor);
require(${JSON.stringify(module)}).then((v) => process.stdout.write(String(v)));\n`,
    );
    for (let run = 1; run <= 3; run++) {
      const r = spawnSync(process.execPath, [script], {
        env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
        encoding: 'utf8',
      });
      expect({ run, stderr: r.stderr, status: r.status, stdout: r.stdout }).toEqual({
        run,
        stderr: '',
        status: 0,
        stdout: '1',
      });
    }
  });

  it("the CLI keeps working when oclif's platform check reaches import('wsl-utils') (WSL, or an unreadable /proc/version)", () => {
    const cache = join(scratch, 'cli-cache');
    // A kernel release naming Microsoft: the platform shortcut has a doubt and calls oclif's own
    // getPlatform(), which imports wsl-utils.
    const preload = join(scratch, 'wsl.cjs');
    writeFileSync(preload, 'require("node:os").release = () => "5.15.153.1-microsoft-standard-WSL2";\n');
    const outputs: string[] = [];
    for (let run = 1; run <= 3; run++) {
      const r = spawnSync(process.execPath, ['--require', preload, binPath, 'hooks', 'events', '-o', 'json'], {
        env: demoEnv({ NODE_COMPILE_CACHE: cache, HOOKCTL_NO_FAST_PATH: '1' }), // oclif's platform check
        encoding: 'utf8',
      });
      expect({ run, stderr: r.stderr, status: r.status }).toEqual({ run, stderr: '', status: 0 });
      outputs.push(r.stdout);
    }
    expect(JSON.parse(outputs[0]!).length).toBeGreaterThan(10);
    expect(new Set(outputs).size).toBe(1);
    expect(entries(cache).length).toBeGreaterThan(30); // the rest is still cached
  });
});

describe('compile cache: damaged entries', () => {
  // The first bytes of any V8 code cache data of this Node (its magic number).
  const magic = new Script('0').createCachedData().subarray(0, 4);
  /** Where V8's data starts in an entry: after the path and the source (and whatever else the
   * entry keeps between them and the data). */
  function codeStart(entry: Buffer): number {
    const sourceAt = 4 + entry.readUInt32LE(0);
    const at = entry.indexOf(magic, sourceAt + 4 + entry.readUInt32LE(sourceAt));
    expect(at).toBeGreaterThan(0);
    return at;
  }

  it("the fast path's entry made where there was nothing to read is made again once a run reads declarations, and then kept", async () => {
    const cache = join(scratch, 'coverage-cache');
    const list = ['hooks', 'list', '-o', 'json'];
    const entryOf = () => {
      const e = entries(cache).filter((x) => /\/fast-main\.js\.hooks-list\./.test(x));
      expect(e).toHaveLength(1);
      const file = join(cache, e[0]!);
      return { size: statSync(file).size, mtime: statSync(file).mtimeMs, text: readFileSync(file, 'latin1') };
    };
    // First run in an empty folder: the entry holds no reader's code, and names no kind of source.
    const empty = tempDir('hookctl-empty-ws-');
    const first = await runCli(list, { env: { ...isolatedEnv(), NODE_COMPILE_CACHE: cache }, cwd: empty });
    expect(first.code).toBe(0);
    const made = entryOf();
    expect(made.text).not.toContain('compozy/config');
    // A run in the demo reads CompozyOS and cosh declarations: the entry is made again, larger.
    const env = demoEnv({ NODE_COMPILE_CACHE: cache });
    const demo = await runCli([...list, '--workspace', join(demoDir, 'workspace')], { env });
    expect(demo.code).toBe(0);
    const remade = entryOf();
    expect(remade.size).toBeGreaterThan(made.size);
    expect(remade.text).toContain('compozy/config');
    expect(remade.text).toContain('cosh/cosh_config');
    // Then it is kept: by the same run again, and by the empty folder's.
    const again = await runCli([...list, '--workspace', join(demoDir, 'workspace')], { env });
    await runCli(list, { env: { ...isolatedEnv(), NODE_COMPILE_CACHE: cache }, cwd: empty });
    expect(again.stdout).toBe(demo.stdout);
    expect(entryOf()).toEqual(remade);
  });

  it("V8's data sits at an offset that is a multiple of 8 in every entry (V8 copies data that is not aligned)", async () => {
    const cache = join(scratch, 'aligned-cache');
    // The fast path's file, and oclif's modules (a command handed over): ~200 entries of every length.
    for (const args of [
      ['hooks', 'list', '-o', 'json'],
      ['hooks', 'sessions'],
    ]) {
      const r = await runCli(args, { env: demoEnv({ NODE_COMPILE_CACHE: cache }) });
      expect(r.code).toBe(0);
    }
    const made = entries(cache);
    expect(made.length).toBeGreaterThan(30);
    for (const e of made) expect({ e, offset: codeStart(readFileSync(join(cache, e))) % 8 }).toEqual({ e, offset: 0 });
  });

  it('an entry whose code data has flipped bytes is never run: compiled again, the entry repaired', () => {
    const cache = join(scratch, 'cache');
    const module = join(scratch, 'fns.cjs');
    // Enough functions that any 8 bytes of the data are likely to hit compiled code.
    const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
    writeFileSync(
      module,
      `${body}\nmodule.exports = [${Array.from({ length: 200 }, (_, i) => `f${i}(1)`).join(', ')}].length;\n`,
    );
    load(module, { NODE_COMPILE_CACHE: cache });
    const [entry] = entries(cache);
    const file = join(cache, entry!);
    const intact = readFileSync(file);
    const start = codeStart(intact);
    for (let k = 0; k < 20; k++) {
      const damaged = Buffer.from(intact);
      const at = start + Math.floor(((k + 0.5) / 20) * (damaged.length - start - 8));
      for (let i = 0; i < 8; i++) damaged[at + i]! ^= 0xa5;
      writeFileSync(file, damaged);
      const r = load(module, { NODE_COMPILE_CACHE: cache });
      expect(r.value).toBe(200);
      expect(r.state).toMatchObject({ hits: 0, rejected: 1 });
      // Repaired: the run wrote the entry again, and the next run takes it.
      expect(load(module, { NODE_COMPILE_CACHE: cache }).state).toMatchObject({ hits: 1, rejected: 0 });
    }
  });

  it("another module's code data of the same source length is refused, not run", () => {
    const cache = join(scratch, 'cache');
    const left = join(scratch, 'left.cjs');
    const right = join(scratch, 'right.cjs');
    writeFileSync(left, 'module.exports = "left";\n');
    writeFileSync(right, 'module.exports = "rght";\n'); // same length
    load(left, { NODE_COMPILE_CACHE: cache });
    load(right, { NODE_COMPILE_CACHE: cache });
    const byName = (n: string) =>
      join(
        cache,
        entries(cache).find((e) => e.includes(`/${n}.cjs.`))!,
      );
    const leftEntry = readFileSync(byName('left'));
    const rightEntry = readFileSync(byName('right'));
    // The left entry's path, source and checksum, with the right module's code data.
    const spliced = Buffer.concat([
      leftEntry.subarray(0, codeStart(leftEntry)),
      rightEntry.subarray(codeStart(rightEntry)),
    ]);
    writeFileSync(byName('left'), spliced);
    const r = load(left, { NODE_COMPILE_CACHE: cache });
    expect(r.value).toBe('left');
    expect(r.state).toMatchObject({ hits: 0, rejected: 1 });
  });

  it('the CLI answers the same with every one of its entries damaged', async () => {
    const cache = join(scratch, 'cli-cache');
    const args = ['hooks', 'events', '-o', 'json'];
    const cold = await runCli(args, { env: demoEnv({ NODE_COMPILE_CACHE: cache }) });
    expect(cold.code).toBe(0);
    for (const e of entries(cache)) {
      const file = join(cache, e);
      const entry = readFileSync(file);
      const start = codeStart(entry);
      const at = start + Math.floor((entry.length - start - 8) / 2);
      for (let i = 0; i < 8; i++) entry[at + i]! ^= 0xff;
      writeFileSync(file, entry);
    }
    const damaged = await runCli(args, { env: demoEnv({ NODE_COMPILE_CACHE: cache }) });
    expect(damaged.code).toBe(0);
    expect(damaged.stdout).toBe(cold.stdout);
    expect(damaged.stderr).toBe('');
    const repaired = await runCli(args, { env: demoEnv({ NODE_COMPILE_CACHE: cache }) });
    expect(repaired.stdout).toBe(cold.stdout);
  });
});
