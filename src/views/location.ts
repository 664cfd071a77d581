import { isAbsolute, relative, sep } from 'node:path';

/** A path relative to the cwd when inside it, else absolute (SPEC §6 Conventions). */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  if (rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) return file;
  return rel;
}
