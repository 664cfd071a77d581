// The dialects hookctl knows, in the order every command shows and asks them: the only place that
// names them all. Adding a dialect = a folder under src/dialects/ and one line below.
//
// Importing this loads each dialect's light index (its event catalog, src/dialects/types.ts);
// loaders, rules and dispatch load only when a use case calls the member that needs them.
import { compozy } from './compozy/index.js';
import { claudeDialect } from './claude/index.js';
import { cosh } from './cosh/index.js';
import { codexDialect } from './codex/index.js';
import type { Dialect } from './types.js';

const registered: Dialect[] = [compozy, cosh, claudeDialect, codexDialect];

/** Every dialect, in registry order (list, events and runs show them in this order). */
export function dialects(): readonly Dialect[] {
  return registered;
}

export function dialectNames(): string[] {
  return registered.map((d) => d.name);
}

/** The dialect called `name`; undefined when none is. */
export function dialectNamed(name: string): Dialect | undefined {
  return registered.find((d) => d.name === name);
}

/** The dialects a `--dialect` filter selects: that one, or all when none is given. */
export function selectDialects(name: string | undefined): readonly Dialect[] {
  if (name === undefined) return registered;
  const one = dialectNamed(name);
  return one ? [one] : [];
}

/**
 * Adds a dialect after the others (a test's fake dialect; commands read the registry when their
 * module loads, so register before importing them). Returns the undo.
 */
export function registerDialect(dialect: Dialect): () => void {
  if (dialectNamed(dialect.name)) throw new Error(`dialect "${dialect.name}" is already registered`);
  registered.push(dialect);
  return () => {
    const i = registered.indexOf(dialect);
    if (i >= 0) registered.splice(i, 1);
  };
}
