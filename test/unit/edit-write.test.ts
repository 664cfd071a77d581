import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileHash, removeStrayTempFiles, sha256, writeFileAtomic, writeTarget } from '../../src/edit/atomic-write.js';
import { acquireFileLock, lockPathOf, withFileLock } from '../../src/edit/file-lock.js';
import { HookctlError } from '../../src/errors.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookctl-edit-write-'));
  file = join(dir, 'config.toml');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that is certainly not running: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

describe('writeFileAtomic', () => {
  it('replaces the content, keeps the permission bits, leaves no temporary file', async () => {
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o640);
    await writeFileAtomic(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('creates a missing file with mode 0644', async () => {
    await writeFileAtomic(file, 'x');
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it('writes nothing when the file changed since it was read (hook_config_changed)', async () => {
    writeFileSync(file, 'read\n');
    const hash = await fileHash(file);
    writeFileSync(file, 'changed by an editor\n');
    const err = await writeFileAtomic(file, 'mine\n', { expectedHash: hash }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HookctlError);
    expect((err as HookctlError).code).toBe('hook_config_changed');
    expect((err as HookctlError).exit).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('changed by an editor\n');
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('an in-place write between the last check and the rename is put back, and the change refused', async () => {
    writeFileSync(file, 'read\n');
    const hash = await fileHash(file);
    const err = await writeFileAtomic(file, 'mine\n', {
      expectedHash: hash,
      inGap: () => writeFileSync(file, 'newer, in place\n'),
    }).catch((e: unknown) => e);
    expect((err as HookctlError).code).toBe('hook_config_changed');
    expect(readFileSync(file, 'utf8')).toBe('newer, in place\n');
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('a missing file is created only if it is still missing at the rename (a link, not a check)', async () => {
    await expect(
      writeFileAtomic(file, 'mine\n', { expectedHash: null, beforeRename: () => writeFileSync(file, 'theirs\n') }),
    ).rejects.toMatchObject({ code: 'hook_config_changed' });
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');
    expect(readdirSync(dir)).toEqual(['config.toml']);
    rmSync(file);
    await writeFileAtomic(file, 'mine\n', { expectedHash: null });
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('expects a missing file to still be missing (null hash)', async () => {
    expect(await fileHash(file)).toBeNull();
    writeFileSync(file, 'someone else created it\n');
    await expect(writeFileAtomic(file, 'mine\n', { expectedHash: null })).rejects.toMatchObject({
      code: 'hook_config_changed',
    });
    expect(readFileSync(file, 'utf8')).toBe('someone else created it\n');
  });

  it('leaves the old file whole and removes its temporary file when a step before the rename fails', async () => {
    writeFileSync(file, 'old\n');
    await expect(
      writeFileAtomic(file, 'new\n', {
        beforeRename: () => {
          // The complete new content is in a temporary file next to the target at this point.
          const temps = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
          expect(temps).toHaveLength(1);
          expect(readFileSync(join(dir, temps[0]!), 'utf8')).toBe('new\n');
          throw new Error('power cut');
        },
      }),
    ).rejects.toThrow('power cut');
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['config.toml']);
  });

  it('writes through a symbolic link: the link stays, its target gets the new text', async () => {
    mkdirSync(join(dir, 'dotfiles'));
    const real = join(dir, 'dotfiles', 'config.toml');
    writeFileSync(real, 'old\n');
    chmodSync(real, 0o600);
    symlinkSync(join('dotfiles', 'config.toml'), file); // relative, as dotfile managers make them
    await writeFileAtomic(file, 'new\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(join('dotfiles', 'config.toml'));
    expect(readFileSync(real, 'utf8')).toBe('new\n');
    expect(statSync(real).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['config.toml', 'dotfiles']);
    expect(readdirSync(join(dir, 'dotfiles'))).toEqual(['config.toml']);
  });

  it('follows a chain of links, creates the target of a dangling one, and refuses a loop', async () => {
    const real = join(dir, 'real.toml');
    symlinkSync(real, join(dir, 'middle.toml'));
    symlinkSync(join(dir, 'middle.toml'), file);
    expect(await writeTarget(file)).toBe(real);
    await writeFileAtomic(file, 'created\n'); // real.toml does not exist yet
    expect(readFileSync(real, 'utf8')).toBe('created\n');
    expect(lstatSync(file).isSymbolicLink() && lstatSync(join(dir, 'middle.toml')).isSymbolicLink()).toBe(true);
    const hash = await fileHash(file);
    await writeFileAtomic(file, 'again\n', { expectedHash: hash });
    expect(readFileSync(real, 'utf8')).toBe('again\n');
    const loop = join(dir, 'loop.toml');
    symlinkSync(loop, loop);
    await expect(writeFileAtomic(loop, 'x')).rejects.toMatchObject({ code: 'ELOOP' });
    expect(readlinkSync(loop)).toBe(loop);
  });

  it('hashes bytes as sha256', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('removeStrayTempFiles', () => {
  it('removes temporary files of dead writers only', async () => {
    const dead = await deadPid();
    const stray = join(dir, `.config.toml.${dead}.abcdef.tmp`);
    const live = join(dir, `.config.toml.${process.pid}.abcdef.tmp`);
    const other = join(dir, `.other.toml.${dead}.abcdef.tmp`);
    for (const f of [stray, live, other]) writeFileSync(f, 'half');
    expect(await removeStrayTempFiles(file)).toEqual([stray]);
    expect(existsSync(live) && existsSync(other)).toBe(true);
  });
});

describe('file lock', () => {
  it('lets one holder in at a time; each sees the previous holder’s write', async () => {
    writeFileSync(file, '0');
    const inside: number[] = [];
    let max = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(
          file,
          async () => {
            inside.push(1);
            max = Math.max(max, inside.length);
            const n = Number(readFileSync(file, 'utf8'));
            await new Promise((r) => setTimeout(r, 2));
            writeFileSync(file, String(n + 1));
            inside.pop();
          },
          { retryMs: 2 },
        ),
      ),
    );
    expect(max).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('20');
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  /** The holder recorded in the lock of `file`. */
  const holderOf = (file: string) => {
    const lock = lockPathOf(file);
    const owners = readdirSync(lock);
    expect(owners).toHaveLength(1);
    return JSON.parse(readFileSync(join(lock, owners[0]!), 'utf8')) as { pid: number; nonce: string };
  };

  /** A lock of `file` as another process leaves it: the folder with its one owner file. */
  const plantLock = (file: string, info: { pid: number; host: string; nonce: string; created: number }) => {
    mkdirSync(lockPathOf(file));
    writeFileSync(join(lockPathOf(file), `owner.${info.nonce}`), JSON.stringify(info));
  };

  it('breaks the lock of a process that died', async () => {
    plantLock(file, { pid: await deadPid(), host: hostname(), nonce: 'x', created: 0 });
    const release = await acquireFileLock(file, { timeoutMs: 1000 });
    expect(holderOf(file).pid).toBe(process.pid);
    await release();
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it('honours and breaks the lock file of an older hookctl', async () => {
    writeFileSync(lockPathOf(file), JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'old', created: 0 }));
    await expect(acquireFileLock(file, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'hook_config_locked' });
    writeFileSync(
      lockPathOf(file),
      JSON.stringify({ pid: await deadPid(), host: hostname(), nonce: 'old', created: 0 }),
    );
    const release = await acquireFileLock(file, { timeoutMs: 1000 });
    expect(holderOf(file).pid).toBe(process.pid);
    await release();
  });

  it('breaks a lock older than staleMs, whoever holds it', async () => {
    plantLock(file, { pid: process.pid, host: 'elsewhere', nonce: 'y', created: 0 });
    // Aged by hand (the lock's age is its owner file's mtime), not by sleeping past staleMs.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(lockPathOf(file), 'owner.y'), past, past);
    const release = await acquireFileLock(file, { timeoutMs: 1000, staleMs: 10 });
    expect(holderOf(file).pid).toBe(process.pid);
    await release();
  });

  it('removes the taking folders of processes that died before their rename', async () => {
    const stray = `${lockPathOf(file)}.${await deadPid()}.abcdef.tmp`;
    mkdirSync(stray);
    writeFileSync(join(stray, 'owner.abcdef'), '{}');
    await (
      await acquireFileLock(file)
    )();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives up on a live holder after the timeout: hook_config_locked, exit 1', async () => {
    const release = await acquireFileLock(file);
    const err = await acquireFileLock(file, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'hook_config_locked', exit: 1 });
    expect((err as Error).message).toContain(`held by pid ${process.pid}`);
    await release();
  });

  it('never removes a lock that is not its own', async () => {
    const release = await acquireFileLock(file);
    // Someone broke ours (say, judged it stale) and took the lock since.
    const lock = lockPathOf(file);
    for (const owner of readdirSync(lock)) rmSync(join(lock, owner));
    rmSync(lock, { recursive: true });
    const theirs = { pid: process.pid, host: hostname(), nonce: 'someone-else', created: Date.now() };
    plantLock(file, theirs);
    await release();
    expect(holderOf(file)).toEqual(theirs);
  });
});
