// The script a hook command starts, found without running anything (issue 28): the first word of
// a shell command (or an exec-form executable), with only the variables its runtime is known to
// set expanded, then resolved against the folder the hook runs in. A word that cannot be read
// statically (another variable, a command substitution, a glob, an assignment) and a bare name
// (a PATH lookup) give nothing: hookctl does not guess.
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';

export interface ScriptFacts {
  /** The folder the runtime runs the hook in: relative paths start there. */
  cwd: string;
  /** `~` at the start of a shell word. */
  home?: string;
  /** Variables whose value is known: `$NAME` and `${NAME}` expand to these. */
  vars: Readonly<Record<string, string>>;
}

/** The first word of a shell command, expanded; undefined when it cannot be read statically. */
export function firstShellWord(command: string, facts: ScriptFacts): string | undefined {
  const s = command.replace(/^\s+/, '');
  let out = '';
  let i = 0;
  let quote: "'" | '"' | undefined;
  let quotedAny = false;
  const variable = (): string | undefined => {
    // At `$`: `$NAME` or `${NAME}`; anything else ($(...), $1, ${X:-y}) is not static.
    const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(s.slice(i));
    if (!m) return undefined;
    const value = facts.vars[m[1] ?? m[2]!];
    if (value === undefined) return undefined;
    i += m[0].length;
    return value;
  };
  if (s.startsWith('~')) {
    if (facts.home === undefined || !(s.length === 1 || /^~[/\s]/.test(s))) return undefined;
    out = facts.home;
    i = 1;
  }
  while (i < s.length) {
    const c = s[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
      i++;
      continue;
    }
    if (c === '`') return undefined;
    if (c === '$') {
      const v = variable();
      if (v === undefined) return undefined;
      out += v;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < s.length && '$`"\\'.includes(s[i + 1]!)) {
        out += s[i + 1]!;
        i++;
      } else out += c;
      i++;
      continue;
    }
    if (/\s/.test(c) || ';&|<>()'.includes(c)) break;
    if (c === "'" || c === '"') {
      quote = c;
      quotedAny = true;
      i++;
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= s.length) return undefined;
      out += s[i + 1]!;
      i += 2;
      continue;
    }
    if ('*?[{'.includes(c)) return undefined; // a glob or a brace expansion
    if (c === '=' && !quotedAny && /^[A-Za-z_][A-Za-z0-9_]*$/.test(out)) return undefined; // NAME=value cmd
    out += c;
    i++;
  }
  if (quote !== undefined || out === '') return undefined;
  return out;
}

/** Why the file a command path names cannot be run; undefined when it is an executable file. */
export function scriptProblem(path: string): 'missing' | 'directory' | 'not_executable' | undefined {
  let st: ReturnType<typeof statSync>;
  try {
    // No exception for the common miss: a catalog may hold thousands of hooks.
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return 'missing'; // ENOTDIR, ELOOP, EACCES on a parent: not a file the shell can start either
  }
  if (st === undefined) return 'missing';
  if (st.isDirectory()) return 'directory';
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    return 'not_executable';
  }
}

/** A path-like command word, resolved against the hook's folder; undefined for a bare name. */
export function resolveScriptWord(word: string | undefined, cwd: string): string | undefined {
  if (word === undefined || !word.includes('/')) return undefined;
  return resolve(cwd, word);
}

/** The message of a script that cannot run, with the exit code the shell gives for it. */
export function scriptProblemText(path: string, problem: 'missing' | 'directory' | 'not_executable'): string {
  switch (problem) {
    case 'missing':
      return `command ${JSON.stringify(path)} does not exist: the hook fails each time it runs (exit 127)`;
    case 'directory':
      return `command ${JSON.stringify(path)} is a directory: the hook fails each time it runs (exit 126)`;
    case 'not_executable':
      return `command ${JSON.stringify(path)} is not executable (chmod +x): the hook fails each time it runs (exit 126)`;
  }
}
