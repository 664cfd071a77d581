// Skill and subagent front matter (claude.md §1): `hooks:` in SKILL.md and in agents/*.md, the
// same three levels in YAML. Only `hooks` and `name` are checked; the rest belongs to Claude.
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Diagnostic } from '../../declarations/diagnostics.js';
import { parseFrontMatter, splitFrontMatter, unterminatedFrontMatter } from '../../declarations/frontmatter.js';
import { readSourceFileSync, type Locator } from '../../declarations/source-file.js';
import { claudeDiagnostic } from './codes.js';
import { isPlainObject, readEventMap, strayEventKeys, type HookFileContext, type RawHandler } from './handlers.js';
import type { ClaudePluginRef, ClaudeSource } from './model.js';

export interface FrontMatterHooks {
  file: string;
  /** Front matter `name`, else the folder (skills) or file name (agents). */
  name: string;
  /** The file declares `hooks` (of any shape). */
  hasHooks: boolean;
  handlers: RawHandler[];
  diagnostics: Diagnostic[];
  /** The file does not exist. */
  missing?: boolean;
}

export interface FrontMatterOptions {
  source: ClaudeSource;
  kind: 'skill' | 'agent';
  /** The name when the front matter gives none. */
  fallbackName: string;
  /** Turns the name into the origin: `skill/project/<name>`, `agent/user/<name>`, … */
  originOf: (name: string) => string;
  plugin?: ClaudePluginRef;
  /** Only see whether it declares hooks (plugin subagents: Claude ignores them). */
  detectOnly?: boolean;
}

export function readFrontMatterFile(file: string, opts: FrontMatterOptions): FrontMatterHooks {
  const read = readSourceFileSync(file);
  const base: FrontMatterHooks = { file, name: opts.fallbackName, hasHooks: false, handlers: [], diagnostics: [] };
  if (read.kind === 'missing') return { ...base, missing: true };
  if (read.kind === 'bad') {
    read.diagnostic.source = opts.source;
    return { ...base, diagnostics: [read.diagnostic] };
  }
  return parseFrontMatterText(read.text, file, opts);
}

export function parseFrontMatterText(text: string, file: string, opts: FrontMatterOptions): FrontMatterHooks {
  const result: FrontMatterHooks = { file, name: opts.fallbackName, hasHooks: false, handlers: [], diagnostics: [] };
  const split = splitFrontMatter(text);
  if (split.kind === 'none') return result;
  if (split.kind === 'unterminated') {
    if (text.includes('hooks')) {
      result.diagnostics.push(unterminatedFrontMatter(split.delimiter, file, opts.source));
    }
    return result;
  }
  // Most skills declare no hooks: their YAML is not parsed, and only a plain `name:` line is read
  // (a project skill shadows a user one by name).
  if (!split.block.text.includes('hooks')) {
    const name = /^name:[ \t]*(["']?)(.+?)\1[ \t]*$/m.exec(split.block.text)?.[2]?.trim();
    if (name) result.name = name;
    return result;
  }
  const fm = parseFrontMatter(split.block, file, undefined, { yamlOnly: true });
  for (const d of fm.diagnostics) d.source = opts.source;
  result.diagnostics.push(...fm.diagnostics);
  const data = fm.data;
  if (data === undefined) return result;
  const locate: Locator = fm.locate;
  const start = { line: split.block.firstLine };
  if (data.name !== undefined && data.name !== null) {
    if (typeof data.name !== 'string' || data.name.trim() === '') {
      result.diagnostics.push(
        claudeDiagnostic(
          'error',
          'claude_invalid_field_type',
          '"name" must be a string',
          file,
          locate(['name']) ?? start,
          {
            source: opts.source,
          },
        ),
      );
    } else result.name = data.name.trim();
  }
  const ctx: HookFileContext = {
    file,
    source: opts.source,
    origin: opts.originOf(result.name),
    kind: opts.kind,
    locate: (path) => locate(path) ?? undefined,
    base: ['hooks'],
    ...(opts.plugin ? { plugin: opts.plugin } : {}),
  };
  if (!opts.detectOnly) {
    const stray = strayEventKeys(data, { ...ctx, base: [] });
    result.handlers.push(...stray.handlers);
    result.diagnostics.push(...stray.diagnostics);
    if (stray.diagnostics.length > 0) result.hasHooks = true;
  }
  if (!('hooks' in data) || data.hooks === null) return result;
  result.hasHooks = true;
  if (opts.detectOnly) return result;
  if (!isPlainObject(data.hooks)) {
    result.diagnostics.push(
      claudeDiagnostic(
        'error',
        'claude_invalid_setting',
        `${opts.kind} hooks must be an object`,
        file,
        locate(['hooks']) ?? start,
        {
          source: opts.source,
        },
      ),
    );
    return result;
  }
  const map = readEventMap(data.hooks, ctx);
  result.handlers.unshift(...map.handlers);
  result.diagnostics.push(...map.diagnostics);
  return result;
}

/** `<dir>/*\/SKILL.md`, by folder name. */
export async function skillFiles(dir: string): Promise<{ file: string; folder: string }[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
      .map((folder) => ({ file: join(dir, folder, 'SKILL.md'), folder }));
  } catch {
    return [];
  }
}

/** `<dir>/*.md`, by file name. */
export async function agentFiles(dir: string): Promise<{ file: string; stem: string }[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.md') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
      .map((name) => ({ file: join(dir, name), stem: basename(name, '.md') }));
  } catch {
    return [];
  }
}
