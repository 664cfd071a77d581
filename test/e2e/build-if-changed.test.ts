// `npm run demo` (and fuzz, real-world) build only when a build input changed (issue 16): the real
// scripts/build-if-changed.mjs and scripts/build-stamp.mjs, run in a scratch root whose
// scripts/build.mjs is a stand-in that counts its runs and writes the stamp as the real one does.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const STAND_IN_BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildInputsHash, stampFile } from './build-stamp.mjs';
const root = join(import.meta.dirname, '..');
appendFileSync(join(root, 'builds.log'), 'built\\n');
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'oclif.manifest.json'), '{}');
writeFileSync(stampFile(root), buildInputsHash(root) + '\\n');
`;

function scratchRoot(): string {
  const root = tempDir('hookctl-stamp-');
  mkdirSync(join(root, 'scripts'));
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  for (const f of ['build-if-changed.mjs', 'build-stamp.mjs'])
    copyFileSync(join(repoRoot, 'scripts', f), join(root, 'scripts', f));
  writeFileSync(join(root, 'scripts', 'build.mjs'), STAND_IN_BUILD);
  writeFileSync(join(root, 'package.json'), '{"name":"x"}\n');
  writeFileSync(join(root, 'src', 'cli', 'run.ts'), 'export const a = 1;\n');
  return root;
}

describe('build-if-changed', { timeout: 60_000 }, () => {
  it('builds when the stamp is missing or an input changed, and only then', () => {
    const root = scratchRoot();
    const run = () =>
      execFileSync(process.execPath, [join(root, 'scripts', 'build-if-changed.mjs')], { encoding: 'utf8' });
    const builds = () => readFileSync(join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;

    run();
    expect(builds()).toBe(1);
    expect(run()).toMatch(/up to date/);
    expect(builds()).toBe(1);

    // a new mtime alone is no change
    utimesSync(join(root, 'src', 'cli', 'run.ts'), new Date(), new Date(Date.now() + 5000));
    run();
    expect(builds()).toBe(1);

    writeFileSync(join(root, 'src', 'cli', 'run.ts'), 'export const a = 2;\n');
    run();
    expect(builds()).toBe(2);

    writeFileSync(join(root, 'src', 'cli', 'new.ts'), 'export {};\n'); // a new source file
    run();
    expect(builds()).toBe(3);

    writeFileSync(join(root, 'package.json'), '{"name":"y"}\n');
    run();
    expect(builds()).toBe(4);

    rmSync(join(root, 'oclif.manifest.json'));
    run();
    expect(builds()).toBe(5);

    rmSync(join(root, 'dist'), { recursive: true });
    run();
    expect(builds()).toBe(6);
    run();
    expect(builds()).toBe(6);
  });

  it('the real build leaves a stamp that matches the sources it was built from', async () => {
    const { buildIsCurrent } = (await import(pathToFileURL(join(repoRoot, 'scripts', 'build-stamp.mjs')).href)) as {
      buildIsCurrent: (root: string) => boolean;
    };
    // False here means dist/ is older than src/: run `npm run build` (npm test does).
    expect(buildIsCurrent(repoRoot)).toBe(true);
  });
});
