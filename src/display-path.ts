// How a path is shown in every message, report and table: below the views, because dialects,
// use cases and the engine's writers name files in their errors too.
import { isAbsolute, relative, sep } from 'node:path';

// Many declarations share a file (thousands in one config.toml): each path is worked out once.
const cache = new Map<string, string>();

/** A path relative to the cwd when inside it, else absolute (SPEC §6 Conventions). */
export function displayPath(file: string, cwd = process.cwd()): string {
  const key = cwd + '\0' + file;
  let shown = cache.get(key);
  if (shown === undefined) {
    const rel = relative(cwd, file);
    shown = rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel) ? file : rel;
    cache.set(key, shown);
  }
  return shown;
}
