// Skill and subagent front matter (claude.md §1): `hooks:` in SKILL.md and in agents/*.md, the
// same three levels in YAML. Only `hooks` and `name` are checked; the rest belongs to Claude.
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import {
  parseFrontMatter,
  splitFrontMatter,
  unterminatedFrontMatter,
  type FrontMatterBlock,
  type ParsedFrontMatter,
} from '../../../declarations/frontmatter.js';
import { requoteFrontMatter } from './front-matter-requote.js';
import { readSourceFileSync, type Locator } from '../../../declarations/source-file.js';
import { claudeDiagnostic } from '../codes.js';
import { isPlainObject, readEventMap, strayEventKeys, type HookFileContext, type RawHandler } from './handlers.js';
import type { ClaudePluginRef, ClaudeSource } from '../model.js';

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
  kind: 'skill' | 'command' | 'agent';
  /** The name when the front matter gives none. */
  fallbackName: string;
  /** The name is always fallbackName: Claude Code ignores `name` in a command file. */
  fixedName?: boolean;
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
    if (name && !opts.fixedName) result.name = name;
    return result;
  }
  const fm = readTwoPasses(split.block, file, opts.source);
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
    } else if (!opts.fixedName) result.name = data.name.trim();
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

/**
 * Claude Code's two passes (claude.md §2.1.1): strict YAML, then, when that fails, again after
 * quoting the plain values that hold YAML-special characters. A second pass that works is the
 * front matter, with one warning `claude_frontmatter_requoted` at the first rewritten line; when
 * it turned `hooks:` itself into a string, none of the hooks load (`yaml_parse_error` there).
 * When both fail, the first pass's diagnostics stand.
 */
function readTwoPasses(block: FrontMatterBlock, file: string, source: ClaudeSource): ParsedFrontMatter {
  // YAML only, as Claude Code reads it (no TOML fallback of CompozyOS front matters).
  const first = parseFrontMatter(block, file, undefined, { yamlOnly: true });
  const problem = first.diagnostics.find((d) => d.code === 'yaml_parse_error');
  if (first.data !== undefined || block.delimiter !== '---' || problem === undefined) return first;
  const requoted = requoteFrontMatter(block.text);
  if (requoted.rewritten.length === 0) return first;
  const second = parseFrontMatter({ ...block, text: requoted.text }, file, undefined, { yamlOnly: true });
  if (second.data === undefined || second.format !== 'yaml') return first;
  const why = problem.message.replace(/^invalid YAML front matter: /, '');
  const hooksLine = requoted.rewritten.find((r) => r.key === 'hooks');
  if (hooksLine !== undefined) {
    const at = { line: block.firstLine + hooksLine.index };
    const message = `invalid YAML front matter: ${why}`;
    return {
      format: 'yaml',
      locate: second.locate,
      diagnostics: [claudeDiagnostic('error', 'yaml_parse_error', message, file, at, { source })],
    };
  }
  const keys = [...new Set(requoted.rewritten.map((r) => r.key))].join(', ');
  const warning = claudeDiagnostic(
    'warning',
    'claude_frontmatter_requoted',
    `front matter is not valid YAML (${why}); Claude Code reads it after quoting the value of ${keys}; quote it yourself`,
    file,
    { line: block.firstLine + requoted.rewritten[0]!.index },
    { source },
  );
  return { ...second, diagnostics: [warning, ...second.diagnostics] };
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

export interface MarkdownFile {
  file: string;
  /** The file name without `.md`. */
  stem: string;
  /** The path below the folder, `/`-separated (`team/builder.md`). */
  rel: string;
}

/** How deep hookctl descends below `agents/` or `commands/` (a linked folder could loop). */
const MAX_MARKDOWN_DEPTH = 16;

/**
 * Every `*.md` at any depth below `dir` (claude.md §1: subagents and slash commands), hidden
 * files and folders left out, in byte order of the path below `dir`.
 */
export async function markdownFilesUnder(dir: string): Promise<MarkdownFile[]> {
  const out: MarkdownFile[] = [];
  const walk = async (folder: string, prefix: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const path = join(folder, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const s = await stat(path).catch(() => undefined);
        isDir = s?.isDirectory() ?? false;
        isFile = s?.isFile() ?? false;
      }
      if (isDir && depth < MAX_MARKDOWN_DEPTH) await walk(path, `${prefix}${e.name}/`, depth + 1);
      else if (isFile && e.name.endsWith('.md'))
        out.push({ file: path, stem: basename(e.name, '.md'), rel: `${prefix}${e.name}` });
    }
  };
  await walk(dir, '', 0);
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** Subagent files: `*.md` at any depth under `agents/`. */
export const agentFiles = markdownFilesUnder;
/** Slash-command files: `*.md` at any depth under `commands/`. */
export const commandFiles = markdownFilesUnder;
