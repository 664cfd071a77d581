// Mods (claude.md §1.1, 2.1.287): plugins whose hooks/hooks.json names JavaScript or TypeScript
// hooks modules. hookctl never runs them; it reads each module as text, and the files it imports
// by relative path, to find the events the mod registers for, and so the events it may intercept.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../../../declarations/path-inside.js';
import { claudeCatalogMeta } from '../catalog.generated.js';

/** A loaded mod as list, info and fire report it. */
export interface ClaudeMod {
  /** The plugin id. */
  plugin: string;
  /** The module paths as the hooks file lists them (existing ones). */
  modules: string[];
  /** The event names its registrations give, in the order found. */
  registers: string[];
  /** The events of the selected catalog it may intercept, in catalog order. */
  events: string[];
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];
const IMPORTS =
  /(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]|import\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const LITERAL = String.raw`\(\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)"|\x60([^\x60\\$]*)\x60)`;
const ON_CALL = new RegExp(String.raw`\bon` + LITERAL, 'g');
const REGISTER_PARAM =
  /export\s+(?:default\s+)?(?:async\s+)?function\s+register\s*\(\s*([A-Za-z_$][\w$]*)|export\s+const\s+register\s*=\s*(?:async\s*)?(?:function\s*)?\(?\s*([A-Za-z_$][\w$]*)/g;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `./x` from `from`: as written, else with each extension tried; undefined outside the root or missing. */
function resolveImport(root: string, from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e)]) {
    if (isInside(root, candidate) && isFile(candidate)) return candidate;
  }
  return undefined;
}

/** Every registration name in the modules and what they import, transitively, inside the root. */
export function scanModules(root: string, files: readonly string[]): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const add = (m: RegExpMatchArray) => {
      const name = m[1] ?? m[2] ?? m[3];
      if (name !== undefined && !names.includes(name)) names.push(name);
    };
    for (const m of text.matchAll(ON_CALL)) add(m);
    for (const p of text.matchAll(REGISTER_PARAM)) {
      const param = (p[1] ?? p[2])!;
      const call = new RegExp(String.raw`(?<![\w$.])${param.replace(/\$/g, '\\$')}` + LITERAL, 'g');
      for (const m of text.matchAll(call)) add(m);
    }
    for (const m of text.matchAll(IMPORTS)) {
      const next = resolveImport(root, file, (m[1] ?? m[2] ?? m[3])!);
      if (next !== undefined) queue.push(next);
    }
  }
  return names;
}

/** The events (of `catalog`, in its order) that registrations under these names may intercept. */
export function interceptedEvents(names: readonly string[], catalog: readonly string[]): string[] {
  const toolEvents = claudeCatalogMeta().mods.tool_settings_events;
  const toolNames = claudeCatalogMeta().mods.tool_mod_events;
  const hit = new Set<string>();
  for (const name of names) {
    if (name.includes('*')) {
      const re = new RegExp(`^${name.split('*').map(escapeRegExp).join('.*')}$`, 's');
      for (const e of catalog) if (re.test(`classic.${e}`)) hit.add(e);
      if (toolNames.some((t) => re.test(t))) for (const e of toolEvents) hit.add(e);
    } else if (name.startsWith('classic.')) {
      hit.add(name.slice('classic.'.length));
    } else if (toolNames.includes(name)) {
      for (const e of toolEvents) hit.add(e);
    }
  }
  return catalog.filter((e) => hit.has(e));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The module files of `hooks/hooks.json`'s `modules`: relative to `hooks/`. */
export function moduleFile(root: string, path: string): string {
  return resolve(join(root, 'hooks'), path);
}

/** The stderr line of list, info, fire and --dry-run for one mod and the events shown. */
export function modNote(mod: ClaudeMod, shown: readonly string[]): string | undefined {
  const events = mod.events.filter((e) => shown.includes(e));
  if (events.length === 0) return undefined;
  return `mod ${JSON.stringify(mod.plugin)} may intercept ${events.join(', ')}: hookctl does not run mods, so Claude Code's answer there can differ`;
}
