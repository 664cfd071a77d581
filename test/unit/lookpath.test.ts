import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearLookPathCache, FOUND_RELATIVE, lookPath, NOT_FOUND } from '../../src/exec/lookpath.js';

let root: string;
let bin1: string;
let bin2: string;
let work: string;

async function file(path: string, mode: number): Promise<void> {
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, mode);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookctl-lookpath-'));
  bin1 = join(root, 'bin1');
  bin2 = join(root, 'bin2');
  work = join(root, 'work');
  for (const d of [bin1, bin2, work, join(work, 'rel'), join(work, 'hooks'), join(bin1, 'adir')]) {
    await mkdir(d, { recursive: true });
  }
  await file(join(bin1, 'tool'), 0o755);
  await file(join(bin2, 'tool'), 0o755);
  await file(join(bin1, 'plain'), 0o644); // not executable: the search goes on
  await file(join(bin2, 'plain'), 0o755);
  await file(join(bin2, 'adir'), 0o755); // bin1/adir is a directory: skipped
  await file(join(work, 'local'), 0o755);
  await file(join(work, 'rel', 'relonly'), 0o755);
  await file(join(work, 'hooks', 'run.sh'), 0o755);
  await file(join(work, 'hooks', 'noexec.sh'), 0o644);
  await symlink(join(bin1, 'tool'), join(work, 'hooks', 'link'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => clearLookPathCache());

describe('lookPath: names with a slash', () => {
  it('uses the name as is, relative to cwd, when it is an executable file', async () => {
    expect(await lookPath('./hooks/run.sh', '', work)).toEqual({ path: './hooks/run.sh' });
    expect(await lookPath('hooks/run.sh', undefined, work)).toEqual({ path: 'hooks/run.sh' });
    expect(await lookPath(join(work, 'hooks/run.sh'), bin1, '/')).toEqual({ path: join(work, 'hooks/run.sh') });
    expect(await lookPath('./hooks/link', '', work)).toEqual({ path: './hooks/link' });
  });

  it('does not search PATH for it', async () => {
    expect(await lookPath('./tool', bin1, work)).toEqual({ error: 'stat ./tool: no such file or directory' });
  });

  it('refuses a missing file, a directory and a file without execute permission, in Go words', async () => {
    expect(await lookPath('./hooks/missing.sh', '', work)).toEqual({
      error: 'stat ./hooks/missing.sh: no such file or directory',
    });
    expect(await lookPath('./hooks', '', work)).toEqual({ error: 'is a directory' });
    expect(await lookPath('./hooks/noexec.sh', '', work)).toEqual({ error: 'permission denied' });
    expect(await lookPath('./hooks/run.sh/x', '', work)).toEqual({ error: 'stat ./hooks/run.sh/x: not a directory' });
  });
});

describe('lookPath: bare names', () => {
  it('takes the first executable match in PATH order', async () => {
    expect(await lookPath('tool', `${bin1}:${bin2}`, work)).toEqual({ path: join(bin1, 'tool') });
    expect(await lookPath('tool', `${bin2}:${bin1}`, work)).toEqual({ path: join(bin2, 'tool') });
  });

  it('skips entries where the name is not executable or is a directory', async () => {
    expect(await lookPath('plain', `${bin1}:${bin2}`, work)).toEqual({ path: join(bin2, 'plain') });
    expect(await lookPath('adir', `${bin1}:${bin2}`, work)).toEqual({ path: join(bin2, 'adir') });
  });

  it('reports not found, including for an empty or absent PATH (no entries, not ".")', async () => {
    expect(await lookPath('nothing-here', `${bin1}:${bin2}`, work)).toEqual({ error: NOT_FOUND });
    expect(NOT_FOUND).toBe('executable file not found in $PATH');
    expect(await lookPath('local', '', work)).toEqual({ error: NOT_FOUND });
    expect(await lookPath('local', undefined, work)).toEqual({ error: NOT_FOUND });
  });

  it('refuses a match found through an empty entry (".") or any relative entry', async () => {
    expect(FOUND_RELATIVE).toBe('cannot run executable found relative to current directory');
    expect(await lookPath('local', `${bin1}::${bin2}`, work)).toEqual({ error: FOUND_RELATIVE });
    expect(await lookPath('local', `${bin1}:`, work)).toEqual({ error: FOUND_RELATIVE });
    expect(await lookPath('local', `.:${bin1}`, work)).toEqual({ error: FOUND_RELATIVE });
    expect(await lookPath('relonly', `rel:${bin1}`, work)).toEqual({ error: FOUND_RELATIVE });
    // The refusal is for the first match: an absolute match later in PATH is not used instead.
    expect(await lookPath('tool', `:${bin1}`, bin1)).toEqual({ error: FOUND_RELATIVE });
  });

  it('uses an absolute match that comes before a relative entry', async () => {
    expect(await lookPath('tool', `${bin1}::rel`, bin2)).toEqual({ path: join(bin1, 'tool') });
  });

  it('skips a relative entry that has no match', async () => {
    expect(await lookPath('tool', `:rel:${bin2}`, work)).toEqual({ path: join(bin2, 'tool') });
  });
});

describe('lookPath: cache', () => {
  it('answers repeated resolutions from its cache until cleared', async () => {
    const late = join(bin2, 'late');
    expect(await lookPath('late', bin2, work)).toEqual({ error: NOT_FOUND });
    await file(late, 0o755);
    expect(await lookPath('late', bin2, work)).toEqual({ error: NOT_FOUND }); // cached
    clearLookPathCache();
    expect(await lookPath('late', bin2, work)).toEqual({ path: late });
  });

  it('resolves the same command 200 times quickly', async () => {
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 200 }, () => lookPath('tool', `${bin1}:${bin2}`, work)));
    expect(results.every((r) => 'path' in r && r.path === join(bin1, 'tool'))).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
