// What the generators of committed TypeScript share: prettier formatting (when installed) and
// the write-or-`--check` step.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/** A generator's input: its parsed JSON and the sha256 of its text (for the generated header); a
 * file that cannot be read goes to `fail` as one problem. */
export function readSourceJson(path, fail) {
  let raw;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (err) {
    fail([`cannot read ${path}: ${err.code ?? err.message}`]);
  }
  return { data: JSON.parse(raw), sha256: createHash('sha256').update(raw).digest('hex') };
}

/** JSON data as TypeScript, formatted as the rest of the code (unchanged without prettier). */
export async function formatTypeScript(file, text) {
  let prettier;
  try {
    prettier = await import('prettier');
  } catch {
    return text;
  }
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { singleQuote: true, printWidth: 120, trailingComma: 'all', ...config, filepath: file });
}

/** Writes the file, or with `check` only says whether it is stale; returns true when stale. */
export function writeOrCheck({ tool, root, file, text, check }) {
  if (!check) {
    writeFileSync(file, text);
    console.log(`${tool}: wrote ${relative(root, file)}`);
    return false;
  }
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current === text) return false;
  console.error(`${tool}: ${relative(root, file)} is stale`);
  return true;
}

/**
 * A generated table as TypeScript: a memoised function that creates the literal on its first
 * call, not an exported constant. A constant's literal is created on every start whether or not
 * the command reads it, its boilerplate sits in the compile cache (read back on every start) and
 * the objects fill the young generation; `hooks list` in a workspace without Claude Code or Codex
 * files reads neither dialect's tables (docs/PERFORMANCE.md). `doc` is the table's doc comment.
 */
export function lazyTable({ doc, name, type, value }) {
  const cache = `cached${name[0].toUpperCase()}${name.slice(1)}`;
  return [
    `let ${cache}: ${type} | undefined;`,
    '',
    '/**',
    ` * ${doc}`,
    ' * Built on its first call (a function, not a constant: a run that never reads it never creates it).',
    ' */',
    `export function ${name}(): ${type} {`,
    `  return (${cache} ??= ${JSON.stringify(value, null, 2)});`,
    '}',
  ].join('\n');
}
