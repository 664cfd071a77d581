// The deferral of unused oclif modules (src/cli/lazy-oclif.ts): the table must describe the
// installed @oclif/core exactly, and a stand-in must behave as the module once touched.
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { answered, DEFERRED, deferredEsModule, lazyModule } from '../../src/cli/lazy-oclif.js';

const require = createRequire(import.meta.url);
const oclifLib = join(dirname(require.resolve('@oclif/core/package.json')), 'lib');

describe('the deferral table matches the installed @oclif/core', () => {
  const entries = Object.entries(DEFERRED).flatMap(([file, requests]) =>
    Object.entries(requests).map(([request, esModule]) => [file, request, esModule] as const),
  );

  it.each(entries)('%s requires %s at its top', (file, request) => {
    const text = readFileSync(join(oclifLib, file), 'utf8');
    const quoted = request.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(text).toMatch(new RegExp(`= (?:__importDefault\\()?require\\((["'])${quoted}\\1\\)`));
  });

  it.each(entries)('%s → %s: __esModule is %s', (file, request, esModule) => {
    const fromFile = createRequire(join(oclifLib, file));
    const real = fromFile(request) as { __esModule?: boolean };
    expect(real.__esModule === true).toBe(esModule);
  });
});

describe('deferredEsModule', () => {
  it('finds a request made from a listed oclif file, on any platform', () => {
    expect(deferredEsModule('/x/node_modules/@oclif/core/lib/flags.js', './help')).toBe(true);
    expect(deferredEsModule('C:\\x\\node_modules\\@oclif\\core\\lib\\config\\config.js', 'ejs')).toBe(false);
  });
  it('leaves everything else alone', () => {
    expect(deferredEsModule('/x/node_modules/@oclif/core/lib/flags.js', './errors')).toBeUndefined();
    expect(deferredEsModule('/x/node_modules/other/lib/flags.js', './help')).toBeUndefined();
    expect(deferredEsModule(undefined, './help')).toBeUndefined();
  });
});

describe('lazyModule', () => {
  function counted<T>(value: T): { loads: () => number; module: unknown } {
    let n = 0;
    const module = lazyModule(() => {
      n++;
      return value;
    }, true);
    return { loads: () => n, module };
  }

  it('answers __esModule without loading, and loads once on first real use', () => {
    const { loads, module } = counted({ answer: 42, __esModule: true });
    expect((module as { __esModule: boolean }).__esModule).toBe(true);
    expect(loads()).toBe(0);
    expect((module as { answer: number }).answer).toBe(42);
    expect((module as { answer: number }).answer).toBe(42);
    expect(loads()).toBe(1);
  });

  it('reports an unknown __esModule as undefined (TypeScript then wraps it as a default export)', () => {
    const module = lazyModule(() => ({}), false) as { __esModule?: boolean };
    expect(module.__esModule).toBeUndefined();
  });

  it('calls a module that is a function, and constructs a class export', () => {
    const fn = lazyModule(() => (a: number, b: number) => a + b, false) as (a: number, b: number) => number;
    expect(fn(2, 3)).toBe(5);
    class Help {
      constructor(readonly topic: string) {}
    }
    const mod = lazyModule(() => ({ Help }), true) as { Help: typeof Help };
    const help = new mod.Help('hooks');
    expect(help).toBeInstanceOf(Help);
    expect(help.topic).toBe('hooks');
    const Ctor = lazyModule(() => Help, false) as typeof Help;
    expect(new Ctor('x')).toBeInstanceOf(Help);
  });

  it('lists, tests and sets keys of the real module', () => {
    const real: Record<string, unknown> = { a: 1, b: 2 };
    const module = lazyModule(() => real, true) as Record<string, unknown>;
    expect(Object.keys(module)).toEqual(['a', 'b']);
    expect('a' in module).toBe(true);
    expect('z' in module).toBe(false);
    module.c = 3;
    expect(real.c).toBe(3);
    expect({ ...module }).toEqual({ a: 1, b: 2, c: 3 });
  });
});

describe("the stand-in for util/fs.js's fs/promises", () => {
  const fromUtilFs = '/x/node_modules/@oclif/core/lib/util/fs.js';
  const own = answered(fromUtilFs, 'node:fs/promises')!;
  const readFileSyncBacked = own.readFile as typeof readFile;

  it('answers readFile itself, and only for that file and request', () => {
    expect(Object.keys(own)).toEqual(['readFile']);
    expect(answered('/x/node_modules/@oclif/core/lib/config/ts-path.js', 'node:fs/promises')).toBeUndefined();
    expect(answered('/x/node_modules/other/lib/util/fs.js', 'node:fs/promises')).toBeUndefined();
  });

  it("gives what fs/promises' readFile gives: the text, or a rejection with the same code and message", async () => {
    const dir = tempDir('hookctl-lazy-fs-');
    const file = join(dir, 'manifest.json');
    writeFileSync(file, '{"commands":{"é":1}}');
    expect(await readFileSyncBacked(file, 'utf8')).toBe(await readFile(file, 'utf8'));
    const missing = join(dir, 'theme.json');
    const real = await readFile(missing, 'utf8').catch((e: NodeJS.ErrnoException) => e);
    const ours = await readFileSyncBacked(missing, 'utf8').catch((e: NodeJS.ErrnoException) => e);
    expect(ours).toBeInstanceOf(Error);
    expect([(ours as NodeJS.ErrnoException).code, (ours as Error).message]).toEqual([
      (real as NodeJS.ErrnoException).code,
      (real as Error).message,
    ]);
  });

  it('reads through the stand-in without loading the module; anything else loads it', () => {
    let loads = 0;
    const mod = lazyModule(
      () => {
        loads++;
        return { stat: 'real stat' };
      },
      false,
      own,
    ) as { readFile: unknown; stat: unknown };
    expect(mod.readFile).toBe(own.readFile);
    expect(loads).toBe(0);
    expect(mod.stat).toBe('real stat');
    expect(loads).toBe(1);
  });
});
