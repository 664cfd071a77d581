// The resolver shortcut (src/cli/resolve-shortcut.ts) against Node's own resolver: every answer
// it gives for the built CLI must be Node's, and whatever it does not know it must leave to Node.
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownAnswer, knownRequires } from '../../src/cli/resolve-shortcut.js';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const distDir = realpathSync(join(repoRoot, 'dist'));
const shortcut = knownRequires(distDir);
const nodeAnswer = (request: string, from: string) => createRequire(from).resolve(request);

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? builtFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

describe('the resolver shortcut of the built CLI', () => {
  it('finds the packages of its table where Node finds them', () => {
    expect(shortcut.packages.map((p) => p.name)).toEqual(['@oclif/core', 'smol-toml']);
    for (const p of shortcut.packages) expect(p.root).toBe(realpathSync(join(repoRoot, 'node_modules', p.name)));
    expect(shortcut.distFiles.size).toBe(builtFiles(distDir).length);
  });

  it("answers every require between hookctl's built files as Node does", () => {
    let checked = 0;
    for (const file of builtFiles(distDir)) {
      for (const [, request] of readFileSync(file, 'utf8').matchAll(/\brequire\("(\.{1,2}\/[^"]+)"\)/g)) {
        expect(knownAnswer(shortcut, request!, file)).toBe(nodeAnswer(request!, file));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('answers the packages from hookctl (their exports) and inside them as Node does', () => {
    const from = join(distDir, 'chunks', 'any.js');
    let checked = 0;
    for (const p of shortcut.packages) {
      for (const request of Object.keys(p.exports)) {
        expect(knownAnswer(shortcut, request, from)).toBe(nodeAnswer(request, from));
        checked++;
      }
      for (const [file, requests] of Object.entries(p.files)) {
        for (const request of Object.keys(requests)) {
          const parent = join(p.root, file);
          expect(knownAnswer(shortcut, request, parent)).toBe(nodeAnswer(request, parent));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
    // oclif naming itself, which Node answers from its own exports.
    const cache = join(shortcut.packages[0]!.root, 'lib', 'cache.js');
    expect(knownAnswer(shortcut, '@oclif/core/package.json', cache)).toBe(
      join(shortcut.packages[0]!.root, 'package.json'),
    );
  });

  it('leaves to Node what it does not know', () => {
    const chunk = join(distDir, 'cli', 'run.js');
    expect(knownAnswer(shortcut, 'yaml', chunk)).toBeUndefined(); // another package
    expect(knownAnswer(shortcut, '@oclif/core/lib/command.js', chunk)).toBeUndefined(); // not exported
    expect(knownAnswer(shortcut, './compile-cache', chunk)).toBeUndefined(); // no extension
    expect(knownAnswer(shortcut, './not-built.js', chunk)).toBeUndefined(); // not a built file
    expect(knownAnswer(shortcut, '../../package.json', chunk)).toBeUndefined(); // outside dist/
    expect(knownAnswer(shortcut, '../bin/run.js', join(repoRoot, 'x.js'))).toBeUndefined(); // parent elsewhere
    expect(knownAnswer(shortcut, './x.js', undefined)).toBeUndefined();
    const oclifFile = join(shortcut.packages[0]!.root, 'lib', 'command.js');
    expect(knownAnswer(shortcut, './not-required-here', oclifFile)).toBeUndefined();
  });
});

describe('knownRequires', () => {
  /** A package folder with dist/ (holding `table`) and one installed package of `version`. */
  function layout(table: unknown, version: string): string {
    const root = tempDir('hookctl-resolve-shortcut-');
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    mkdirSync(join(root, 'node_modules', 'fake'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'fake', 'package.json'), JSON.stringify({ name: 'fake', version }));
    if (table !== undefined) writeFileSync(join(root, 'dist', 'known-requires.json'), JSON.stringify(table));
    return realpathSync(join(root, 'dist'));
  }
  const table = {
    dist: ['cli/run.js'],
    packages: { fake: { version: '1.0.0', exports: { fake: 'main.js' }, files: { 'main.js': { './b': 'b.js' } } } },
  };

  it('uses a package of the version the table was made from', () => {
    const dist = layout(table, '1.0.0');
    const found = knownRequires(dist);
    expect(found.packages.map((p) => [p.name, relative(dist, p.root)])).toEqual([
      ['fake', join('..', 'node_modules', 'fake')],
    ]);
    expect(knownAnswer(found, 'fake', join(dist, 'cli', 'run.js'))).toBe(
      join(dist, '..', 'node_modules', 'fake', 'main.js'),
    );
    expect(knownAnswer(found, './run.js', join(dist, 'cli', 'x.js'))).toBe(join(dist, 'cli', 'run.js'));
  });

  it('leaves a package of another version, or everything without a table, to Node', () => {
    const other = knownRequires(layout(table, '1.0.1'));
    expect(other.packages).toEqual([]);
    const none = knownRequires(layout(undefined, '1.0.0'));
    expect(none.packages).toEqual([]);
    expect(knownAnswer(none, './run.js', join(none.distDir, 'cli', 'x.js'))).toBeUndefined();
  });
});
