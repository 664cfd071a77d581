// How `hooks validate` shows a file (SPEC §6 Conventions): relative to the current directory when
// the file is inside it, else absolute.
import { isAbsolute, relative, resolve, sep } from 'node:path';

export function relativeToCwd(file: string, cwd: string): string {
  const absolute = resolve(cwd, file);
  const rel = relative(resolve(cwd), absolute);
  // `..` or `../x` leaves the cwd; a name that merely starts with two dots (`..hidden`) does not.
  // Another drive on Windows gives an absolute `rel`.
  if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return absolute;
  return rel;
}
