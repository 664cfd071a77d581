// What a build is made from, as one hash: every file under src/, the build script, package.json,
// the lock file and tsconfig.json. scripts/build.mjs writes it to dist/.build-stamp when it
// finishes; scripts/build-if-changed.mjs builds again only when the hash differs (or the stamp or
// the manifest is missing). Contents, not mtimes: a checkout or a `touch` changes mtimes but not
// what is built, and an edit that keeps the mtime (an editor, a `git stash pop`) must still count.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const stampFile = (root) => join(root, 'dist', '.build-stamp');

export function buildInputsHash(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  walk(join(root, 'src'));
  for (const name of [
    'scripts/build.mjs',
    'scripts/build-stamp.mjs',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
  ]) {
    if (existsSync(join(root, name))) files.push(join(root, name));
  }
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ and the manifest were built from the sources as they are now. */
export function buildIsCurrent(root) {
  const stamp = stampFile(root);
  if (!existsSync(stamp) || !existsSync(join(root, 'oclif.manifest.json'))) return false;
  return readFileSync(stamp, 'utf8').trim() === buildInputsHash(root);
}
