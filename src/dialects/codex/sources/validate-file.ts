// `hooks validate FILE` for codex files (codex.md §7): which files are codex's, and their
// diagnostics, the same as loadCatalog reports when the file is one of the loaded sources.
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { readSourceFile } from '../../../declarations/source-file.js';
import type { Locations } from '../../../paths.js';
import { codexLocations } from '../locations.js';
import type { CodexFileKind } from '../model.js';
import { checkHooksFileNode, readHooksJsonText, type DocumentMeta } from './json-file.js';
import { manifestFile, readPluginManifest } from './plugins.js';
import { checkTomlHooks, parseTomlText, readFeature, readHookStates, stateIgnored } from './toml-file.js';

export type CodexValidateKind = 'requirements' | 'hooks_json' | 'config_toml' | 'manifest';

/** The kind of a file by its name and place; `exclusive` when no other dialect's guess counts. */
export function codexFileKindOf(
  file: string,
  cl: { codexHome: string; systemDir: string },
  forced: boolean,
): { kind: CodexValidateKind; exclusive: boolean; pluginRoot?: string } | undefined {
  const name = basename(file);
  const dir = resolve(dirname(file));
  if (name === 'requirements.toml') return { kind: 'requirements', exclusive: true };
  if (name === 'plugin.json' && basename(dir) === '.codex-plugin') return { kind: 'manifest', exclusive: true };
  if (name !== 'hooks.json' && name !== 'config.toml') return undefined;
  const kind = name === 'hooks.json' ? 'hooks_json' : 'config_toml';
  const home = basename(dir) === '.codex' || dir === resolve(cl.codexHome) || dir === resolve(cl.systemDir);
  if (home) return { kind, exclusive: true };
  // A plugin root's file (codex.md §7: a root with .codex-plugin/plugin.json). Its place names it
  // codex's, so codex speaks even when another dialect also reads the file by its place (claude
  // reads any plugin's hooks/hooks.json): a Codex-only rule such as "prompt hooks are skipped"
  // must not go unsaid.
  if (existsSync(manifestFile(dir))) return { kind, exclusive: true, pluginRoot: dir };
  if (kind === 'hooks_json' && basename(dir) === 'hooks' && existsSync(manifestFile(dirname(dir))))
    return { kind, exclusive: true, pluginRoot: dirname(dir) };
  return forced ? { kind, exclusive: false } : undefined;
}

export async function validateCodexFile(
  file: string,
  loc: Locations,
  env: NodeJS.ProcessEnv,
  forced: boolean,
): Promise<{ diagnostics: Diagnostic[]; exclusive: boolean } | undefined> {
  const cl = codexLocations(loc, env);
  const kind = codexFileKindOf(file, cl, forced);
  if (kind === undefined) return undefined;
  const abs = resolve(file);
  // A file the catalog reads: exactly what the catalog says of it (trust and gates included).
  const { loadCodexSources } = await import('./load.js');
  const catalog = await loadCodexSources(loc, env).catch(() => undefined);
  if (catalog?.files.includes(abs) === true) {
    return { diagnostics: catalog.diagnostics.filter((d) => d.file === abs), exclusive: kind.exclusive };
  }
  return { diagnostics: await standalone(abs, kind.kind, cl, kind.pluginRoot), exclusive: kind.exclusive };
}

/** A codex file outside the loaded sources: its own rules, no trust or gates. */
async function standalone(
  file: string,
  kind: CodexValidateKind,
  cl: { codexHome: string; systemDir: string },
  pluginRoot?: string,
): Promise<Diagnostic[]> {
  if (kind === 'manifest') {
    const root = dirname(dirname(file));
    const m = await readPluginManifest(root);
    if (m === undefined) return [];
    const out = [...m.diagnostics];
    for (const src of m.sources) {
      if (src.kind !== 'inline') continue;
      const meta: DocumentMeta = {
        file,
        fileKind: 'plugin_inline',
        origin: `plugin/${m.name}/${src.rel}`,
        source: 'codex_plugin',
      };
      out.push(...checkHooksFileNode(src.node, src.base, src.locate, meta).diagnostics);
    }
    return out;
  }
  const source =
    kind === 'requirements' ? 'codex_managed' : pluginRoot !== undefined ? 'codex_plugin' : 'codex_project';
  const read = await readSourceFile(file, source, { json: kind === 'hooks_json' });
  if (read.kind === 'missing') return [];
  if (read.kind === 'bad') return [read.diagnostic];
  const fileKind: CodexFileKind =
    kind === 'hooks_json' ? 'hooks_json' : kind === 'requirements' ? 'requirements_toml' : 'config_toml';
  // A plugin's file is named as when the plugin is loaded (§2.4): plugin/<name>/<path>.
  const plugin = pluginRoot !== undefined ? await readPluginManifest(pluginRoot) : undefined;
  const origin =
    plugin !== undefined && pluginRoot !== undefined
      ? `plugin/${plugin.name}/${relative(pluginRoot, file).split(sep).join('/')}`
      : file;
  const meta: DocumentMeta = { file, fileKind, origin, source };
  if (kind === 'hooks_json') {
    const r = readHooksJsonText(read.text, meta);
    return r.ok ? r.checked.diagnostics : [r.diagnostic];
  }
  const parsed = parseTomlText(read.text, file, source);
  if (!parsed.ok) return [parsed.diagnostic];
  const out: Diagnostic[] = [...readFeature(parsed.doc, file, source).diagnostics];
  const user = resolve(join(cl.codexHome, 'config.toml')) === file;
  if (user) out.push(...readHookStates(parsed.doc, file, source).diagnostics);
  else {
    const ignored = stateIgnored(parsed.doc, file, source);
    if (ignored !== undefined) out.push(ignored);
  }
  out.push(...checkTomlHooks(parsed.doc, meta).diagnostics);
  return out;
}
