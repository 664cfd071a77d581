// Which sources the compile cache leaves to Node because they may call import() (a cached
// script loses its dynamic-import callback on Node 20; test/e2e/compile-cache.test.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasDynamicImport } from '../../src/cli/compile-cache.js';

describe('hasDynamicImport', () => {
  it.each([
    ['import("x")', true],
    ['await import ("x")', true],
    ['import/* why */("x")', true],
    ['import // why\n("x")', true],
    ['import\n\t(x)', true],
    ['a.import(x)', true], // a method of that name: left to Node too, which costs only a compile
    ['"import(" in a string', true],
    ['__importDefault(require("x"))', false],
    ['importance(1)', false],
    ['import x from "y"', false],
    ['const imports = 1; reimport(2)', false],
    ['import /* never closed', false],
    ['', false],
  ])('%j → %s', (source, expected) => {
    expect(hasDynamicImport(source)).toBe(expected);
  });

  it("finds oclif's three files that import() on a run, and none of its config graph besides", () => {
    const require = createRequire(import.meta.url);
    const lib = dirname(require.resolve('@oclif/core/config').replace(/config[\\/]index\.js$/, 'index.js'));
    const read = (f: string) => readFileSync(join(lib, f), 'utf8');
    for (const f of ['util/os.js', 'module-loader.js', 'config/ts-path.js'])
      expect(hasDynamicImport(read(f)), f).toBe(true);
    for (const f of ['config/config.js', 'config/plugin.js', 'errors/index.js', 'command.js', 'parser/parse.js'])
      expect(hasDynamicImport(read(f)), f).toBe(false);
  });
});
