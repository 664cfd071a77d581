// Plugins (claude.md §1): the installed copies under $CLAUDE_CONFIG_DIR/plugins/cache (highest
// semver version of each), --plugin-dir roots, and each plugin's hook files — hooks/hooks.json
// always, plus what .claude-plugin/plugin.json "hooks" adds (paths inside the root, or an inline
// object). If any hook file of a plugin has an error, none of its hooks load.
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { isError } from '../../../declarations/diagnostics.js';
import { isInside } from '../../../declarations/path-inside.js';
import type { Locator, PathSeg, Position } from '../../../declarations/source-file.js';
import { claudeDiagnostic } from '../codes.js';
import { ruleHolds } from '../releases.js';
import { markdownFilesUnder, type MarkdownFile } from './front-matter.js';
import { isPlainObject, readEventMap, type HookFileContext, type RawHandler } from './handlers.js';
import { readJsonFile, type JsonDoc, type JsonRead } from '../json-doc.js';
import type { ClaudePluginRef } from '../model.js';

export interface PluginCopy {
  /** `<name>@<marketplace>`, or a --plugin-dir plugin's manifest name (else folder name). */
  id: string;
  name: string;
  root: string;
  /** A --plugin-dir root: always active. */
  fromFlag: boolean;
}

export interface PluginManifest {
  /** The manifest as parsed; undefined when there is none or it does not parse. */
  data?: Record<string, unknown>;
  locate: Locator;
  file: string;
  diagnostics: Diagnostic[];
}

/** A plugin's hook handlers, each with the file context it came from. */
export interface PluginHooks {
  handlers: { raw: RawHandler; ctx: HookFileContext }[];
  diagnostics: Diagnostic[];
  files: string[];
  /** Some hook file had an error: no hook of the plugin loads. */
  failed: boolean;
  /** hooks/hooks.json `modules` (claude.md §1.1, 2.1.287): the plugin is a mod. */
  modules?: { paths: string[]; file: string; at: Position };
}

const q = (s: string): string => JSON.stringify(s);

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Every installed plugin's newest copy, by id. */
export async function installedPlugins(cacheDir: string): Promise<PluginCopy[]> {
  const out: PluginCopy[] = [];
  for (const marketplace of await subdirs(cacheDir)) {
    for (const name of await subdirs(join(cacheDir, marketplace))) {
      const versions = await subdirs(join(cacheDir, marketplace, name));
      if (versions.length === 0) continue;
      const best = versions.sort(compareVersions).at(-1)!;
      out.push({ id: `${name}@${marketplace}`, name, root: join(cacheDir, marketplace, name, best), fromFlag: false });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Ascending: non-semver names first (by name), then semver versions in semver order. */
export function compareVersions(a: string, b: string): number {
  const ma = SEMVER.exec(a);
  const mb = SEMVER.exec(b);
  if (!ma || !mb) {
    if (ma) return 1;
    if (mb) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  for (let i = 1; i <= 3; i++) {
    const d = Number(ma[i]) - Number(mb[i]);
    if (d !== 0) return d;
  }
  const pa = ma[4];
  const pb = mb[4];
  if (pa === undefined || pb === undefined) return pa === pb ? 0 : pa === undefined ? 1 : -1;
  const ia = pa.split('.');
  const ib = pb.split('.');
  for (let i = 0; i < Math.max(ia.length, ib.length); i++) {
    const x = ia[i];
    const y = ib[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export async function readPluginManifest(root: string): Promise<PluginManifest> {
  const file = join(root, '.claude-plugin', 'plugin.json');
  return pluginManifestOf(await readJsonFile(file, 'claude_plugin'), file);
}

/** A read (or parsed) plugin.json as a manifest: its data when it is an object, else the problem. */
export function pluginManifestOf(read: JsonRead, file: string): PluginManifest {
  if (read.kind === 'missing') return { file, locate: () => undefined, diagnostics: [] };
  if (read.kind === 'bad') return { file, locate: () => undefined, diagnostics: [read.diagnostic] };
  const data = read.doc.value;
  if (!isPlainObject(data)) {
    const d = claudeDiagnostic(
      'error',
      'claude_invalid_setting',
      'plugin.json must be a JSON object',
      file,
      { line: 1 },
      {
        source: 'claude_plugin',
      },
    );
    return { file, locate: read.doc.locate, diagnostics: [d] };
  }
  return { file, data, locate: read.doc.locate, diagnostics: [] };
}

/** A --plugin-dir root: its id is the manifest name, else the folder name. */
export function flagPluginId(root: string, manifest: PluginManifest): string {
  const name = manifest.data?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : basename(root);
}

/** Every hook file of one plugin, read and checked; all or nothing. */
export async function readPluginHooks(ref: ClaudePluginRef, manifest: PluginManifest): Promise<PluginHooks> {
  const out: PluginHooks = { handlers: [], diagnostics: [...manifest.diagnostics], files: [], failed: false };
  const origin = `plugin/${ref.id}`;
  const standard = join(ref.root, 'hooks', 'hooks.json');
  const realRoot = await realpath(ref.root).catch(() => ref.root);
  // From 2.1.257, a hook file that is, or passes through, a link out of the root is refused.
  const linksOut = async (file: string) => {
    if (!ruleHolds('plugin_symlink_escape')) return false;
    const real = await realpath(file).catch(() => undefined);
    return real !== undefined && !isInside(realRoot, real);
  };
  if (await linksOut(standard)) {
    out.diagnostics.push(
      claudeDiagnostic(
        'error',
        'path_escapes_root',
        'hooks file "hooks/hooks.json" is outside the plugin root',
        standard,
        { line: 1 },
        {
          source: 'claude_plugin',
        },
      ),
    );
  } else await readHookFile(standard, origin, ref, out);

  const hooks = manifest.data?.hooks;
  const mdiag = (code: Parameters<typeof claudeDiagnostic>[1], message: string, path: PathSeg[]) =>
    out.diagnostics.push(
      claudeDiagnostic('error', code, message, manifest.file, manifest.locate(path) ?? { line: 1 }, {
        source: 'claude_plugin',
      }),
    );
  if (hooks !== undefined && hooks !== null) {
    if (isPlainObject(hooks)) {
      const inline = isPlainObject(hooks.hooks) ? hooks.hooks : hooks;
      const base: PathSeg[] = inline === hooks ? ['hooks'] : ['hooks', 'hooks'];
      readHookMap(
        inline,
        {
          file: manifest.file,
          source: 'claude_plugin',
          origin: `${origin}/plugin.json`,
          kind: 'plugin',
          plugin: ref,
          locate: manifest.locate,
          base,
        },
        out,
      );
      out.files.push(manifest.file);
    } else if (typeof hooks === 'string' || (Array.isArray(hooks) && hooks.every((h) => typeof h === 'string'))) {
      const paths = typeof hooks === 'string' ? [hooks] : (hooks as string[]);
      for (const [i, p] of paths.entries()) {
        const path: PathSeg[] = typeof hooks === 'string' ? ['hooks'] : ['hooks', i];
        const file = resolve(ref.root, p);
        if (!isInside(ref.root, file)) {
          mdiag('path_escapes_root', `hooks file ${q(p)} is outside the plugin root`, path);
          continue;
        }
        if (file === standard) {
          mdiag(
            'claude_plugin_duplicate_hooks_file',
            'Duplicate hooks file detected: manifest.hooks should only reference additional hook files',
            path,
          );
          continue;
        }
        const real = await realpath(file).catch(() => undefined);
        if (real === undefined) {
          mdiag(
            'claude_plugin_hooks_file_missing',
            `plugin ${q(ref.id)} lists hooks file ${q(p)}, which does not exist`,
            path,
          );
          continue;
        }
        if (await linksOut(file)) {
          mdiag('path_escapes_root', `hooks file ${q(p)} is outside the plugin root`, path);
          continue;
        }
        await readHookFile(file, `${origin}/${relative(ref.root, file).split(sep).join('/')}`, ref, out);
      }
    } else {
      mdiag('claude_invalid_setting', '"hooks" must be a path, a list of paths or an object', ['hooks']);
    }
  }
  if (out.diagnostics.some(isError)) {
    // Claude loads none of the plugin's hooks (claude.md §1): each is invalid, with its own errors
    // first, then the plugin's that stop it.
    out.failed = true;
    const errors = out.diagnostics.filter(isError);
    for (const h of out.handlers) {
      const own = h.raw.errors ?? [];
      h.raw.ok = false;
      h.raw.errors = [...own, ...errors.filter((e) => !own.includes(e))];
    }
  }
  return out;
}

async function readHookFile(file: string, origin: string, ref: ClaudePluginRef, out: PluginHooks): Promise<void> {
  const read = await readJsonFile(file, 'claude_plugin');
  if (read.kind === 'missing') return;
  out.files.push(file);
  if (read.kind === 'bad') {
    out.diagnostics.push(read.diagnostic);
    return;
  }
  const hooks = hookFileOf(read.doc, origin, ref);
  out.diagnostics.push(...hooks.diagnostics);
  out.handlers.push(...hooks.handlers);
  if (hooks.modules !== undefined) out.modules = hooks.modules;
}

/** One plugin hooks file (`{"description"?, "hooks": {...}}`), checked. */
export function hookFileOf(doc: JsonDoc, origin: string, ref: ClaudePluginRef): Omit<PluginHooks, 'files' | 'failed'> {
  const out: Omit<PluginHooks, 'files' | 'failed'> = { handlers: [], diagnostics: [] };
  const file = doc.file;
  const data = doc.value;
  const shown = relative(ref.root, file).split(sep).join('/');
  // hooks/hooks.json may name hooks modules (claude.md §1.1, 2.1.287): the plugin is a mod.
  const modsKey = shown === 'hooks/hooks.json' && ruleHolds('mods') && isPlainObject(data) && 'modules' in data;
  if (modsKey) {
    const modules = data.modules;
    const at = doc.locate(['modules']) ?? { line: 1 };
    if (Array.isArray(modules) && modules.every((m) => typeof m === 'string')) {
      out.modules = { paths: modules as string[], file, at };
    } else {
      out.diagnostics.push(
        claudeDiagnostic('error', 'claude_invalid_setting', 'modules must be a list of strings', file, at, {
          source: 'claude_plugin',
        }),
      );
    }
    if (!('hooks' in data)) return out;
  }
  if (!isPlainObject(data) || !isPlainObject(data.hooks)) {
    out.diagnostics.push(
      claudeDiagnostic(
        'error',
        'claude_plugin_hooks_missing',
        `${shown} has no "hooks" object; Claude Code fails to load plugin ${q(ref.id)}`,
        file,
        doc.locate(isPlainObject(data) && 'hooks' in data ? ['hooks'] : []) ?? { line: 1 },
        { source: 'claude_plugin' },
      ),
    );
    return out;
  }
  for (const key of Object.keys(data)) {
    if (key !== 'hooks' && key !== 'description' && key !== '$schema' && !(key === 'modules' && modsKey)) {
      out.diagnostics.push(
        claudeDiagnostic('warning', 'claude_unknown_key', `unknown key ${q(key)}`, file, doc.locate([key]), {
          source: 'claude_plugin',
        }),
      );
    }
  }
  const ctx: HookFileContext = {
    file,
    source: 'claude_plugin',
    origin,
    kind: 'plugin',
    plugin: ref,
    locate: doc.locate,
    base: ['hooks'],
  };
  const map = readEventMap(data.hooks, ctx);
  out.diagnostics.push(...map.diagnostics);
  for (const raw of map.handlers) out.handlers.push({ raw, ctx });
  return out;
}

function readHookMap(map: Record<string, unknown>, ctx: HookFileContext, out: PluginHooks): void {
  const result = readEventMap(map, ctx);
  out.diagnostics.push(...result.diagnostics);
  for (const raw of result.handlers) out.handlers.push({ raw, ctx });
}

/**
 * A plugin's slash-command files (claude.md §1, 2.1.0): every `*.md` at any depth under
 * `commands/`, or, instead of that folder, the `.md` files and folders its manifest `"commands"`
 * names (a path or a list of paths inside the root; others are left out).
 */
export async function pluginCommandFiles(root: string, manifest: PluginManifest): Promise<MarkdownFile[]> {
  const named = manifest.data?.commands;
  const paths =
    typeof named === 'string'
      ? [named]
      : Array.isArray(named)
        ? named.filter((p): p is string => typeof p === 'string')
        : undefined;
  if (paths === undefined) return markdownFilesUnder(join(root, 'commands'));
  const out: MarkdownFile[] = [];
  for (const p of paths) {
    const path = resolve(root, p);
    if (!isInside(root, path)) continue;
    const s = await stat(path).catch(() => undefined);
    if (s?.isDirectory()) out.push(...(await markdownFilesUnder(path)));
    else if (s?.isFile() && path.endsWith('.md'))
      out.push({ file: path, stem: basename(path, '.md'), rel: relative(root, path) });
  }
  return out;
}
