// Resolving an extension hook's command against its extension root (SPEC §2.4):
// - written absolute: stays as it is;
// - otherwise, once templates are expanded, a command with a `/` or a leading `.` resolves
//   inside the root, and one that leaves it (by `..`, or through a symbolic link, both sides
//   compared by real path) is refused: `path "<p>" escapes extension root "<root>"`. This covers a
//   command that is absolute only after `{{config_dir}}` (or `{{env:…}}`) expansion;
// - a bare name stays bare and is looked up on PATH when the hook fires.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isInside } from '../../../declarations/path-inside.js';

export type CommandResolution = { ok: true; command: string; missing?: boolean } | { ok: false; message: string };

export async function resolveExtensionCommand(
  written: string,
  expanded: string,
  root: string,
): Promise<CommandResolution> {
  if (isAbsolute(written.trim())) return { ok: true, command: expanded };
  if (!expanded.includes('/') && !expanded.startsWith('.')) return { ok: true, command: expanded };
  const escapes = (): CommandResolution => ({
    ok: false,
    message: `path ${JSON.stringify(expanded)} escapes extension root ${JSON.stringify(root)}`,
  });
  const candidate = resolve(root, expanded);
  if (!isInside(resolve(root), candidate)) return escapes();
  const realRoot = realOr(root, resolve(root));
  const real = await realPathOfExisting(candidate);
  if (!isInside(realRoot, real.path)) return escapes();
  return real.missing ? { ok: true, command: candidate, missing: true } : { ok: true, command: candidate };
}

/** Whether `path` is `root` or lies below it (both absolute and normalised). */

/**
 * The real path of `path`, or, when it does not exist, the real path of its nearest existing
 * ancestor joined with the rest (so a link in the middle of the path is still followed).
 */
async function realPathOfExisting(path: string): Promise<{ path: string; missing: boolean }> {
  let rest = '';
  let current = path;
  let links = 0;
  for (;;) {
    try {
      const real = realpathSync(current);
      return { path: rest === '' ? real : join(real, rest), missing: rest !== '' };
    } catch {
      // A dangling symbolic link: follow it by hand, so where it points is judged now and not
      // only once its target exists (40 links at most, as the kernel allows).
      const st = lstatSync(current, { throwIfNoEntry: false });
      if (st?.isSymbolicLink() && links++ < 40) {
        const target = readlinkOr(current);
        if (target !== undefined) {
          current = resolve(dirname(current), target);
          continue;
        }
      }
      const parent = dirname(current);
      if (parent === current) return { path, missing: true };
      rest = rest === '' ? relative(parent, current) : join(relative(parent, current), rest);
      current = parent;
    }
  }
}

// Synchronous file calls: these run for every extension hook on every start, where a thread-pool
// round trip each cost more than the call (docs/PERFORMANCE.md).
function realOr(path: string, fallback: string): string {
  try {
    return realpathSync(path);
  } catch {
    return fallback;
  }
}

function readlinkOr(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
