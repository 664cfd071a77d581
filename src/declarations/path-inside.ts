// Whether a path lies inside a root (the root itself included): the check every "escapes its
// root" rule uses (extension commands, skill folders, plugin hook files). Both paths absolute.
import { isAbsolute, relative, sep } from 'node:path';

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
