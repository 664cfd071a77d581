// Codex plugins (codex.md §1): installed copies under $CODEX_HOME/plugins/cache, the version
// chosen, the manifest `.codex-plugin/plugin.json` and the hook files it names.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { parseJsonWithPositions, jsonEntry, type JsonNode } from '../../../declarations/json.js';
import { readSourceFile, type Locator, type PathSeg } from '../../../declarations/source-file.js';
import { compareCodePoints } from '../../../declarations/code-points.js';
import { codexDiagnostic } from '../rules/check.js';
import { dataDirName, q } from '../rules/names.js';
import { jsonLocator } from './json-file.js';

export interface InstalledPlugin {
  id: string;
  name: string;
  marketplace: string;
  root: string;
  dataDir: string;
}

export const pluginCacheDir = (codexHome: string) => join(codexHome, 'plugins', 'cache');

function folders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Semver order when both are semver (a pre-release below its release), else text order. */
export function compareVersions(a: string, b: string): number {
  const x = SEMVER.exec(a);
  const y = SEMVER.exec(b);
  if (x === null || y === null) return compareCodePoints(a, b);
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return Math.sign(d);
  }
  const [pa, pb] = [x[4], y[4]];
  if (pa === undefined || pb === undefined) return pa === pb ? 0 : pa === undefined ? 1 : -1;
  const sa = pa.split('.');
  const sb = pb.split('.');
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    if (sa[i] === undefined) return -1;
    if (sb[i] === undefined) return 1;
    const na = /^\d+$/.test(sa[i]!);
    const nb = /^\d+$/.test(sb[i]!);
    if (na && nb) {
      const d = Number(sa[i]) - Number(sb[i]);
      if (d !== 0) return Math.sign(d);
    } else if (na !== nb) return na ? -1 : 1;
    else {
      const d = compareCodePoints(sa[i]!, sb[i]!);
      if (d !== 0) return d;
    }
  }
  return 0;
}

/** The version folder Codex uses: `local` when present, else the highest. */
export function activeVersion(versions: readonly string[]): string | undefined {
  if (versions.includes('local')) return 'local';
  return [...versions].sort(compareVersions).at(-1);
}

/** Every installed plugin, in id order. */
export function installedPlugins(codexHome: string): InstalledPlugin[] {
  const cache = pluginCacheDir(codexHome);
  const out: InstalledPlugin[] = [];
  for (const marketplace of folders(cache)) {
    for (const name of folders(join(cache, marketplace))) {
      const version = activeVersion(folders(join(cache, marketplace, name)));
      if (version === undefined) continue;
      out.push({
        id: `${name}@${marketplace}`,
        name,
        marketplace,
        root: join(cache, marketplace, name, version),
        dataDir: join(codexHome, 'plugins', 'data', dataDirName(`${name}-${marketplace}`)),
      });
    }
  }
  return out.sort((a, b) => compareCodePoints(a.id, b.id));
}

/** One hook source of a plugin: a file (relative path with `/`) or an inline object of the manifest. */
export type PluginHookSource =
  | { kind: 'file'; rel: string; file: string }
  | { kind: 'inline'; rel: string; node: JsonNode; base: PathSeg[]; locate: Locator; file: string };

export interface PluginManifest {
  /** `name`, else the root folder's name. */
  name: string;
  manifest: string;
  sources: PluginHookSource[];
  diagnostics: Diagnostic[];
  files: string[];
}

export const manifestFile = (root: string) => join(root, '.codex-plugin', 'plugin.json');

/** Reads a plugin root's manifest; undefined when there is none. */
export async function readPluginManifest(root: string): Promise<PluginManifest | undefined> {
  const manifest = manifestFile(root);
  const read = await readSourceFile(manifest, 'codex_plugin', { json: true });
  if (read.kind === 'missing') return undefined;
  const fallbackName = basename(root);
  const defaults = (diagnostics: Diagnostic[]): PluginManifest => ({
    name: fallbackName,
    manifest,
    sources: [],
    diagnostics,
    files: [manifest],
  });
  if (read.kind === 'bad') return defaults([read.diagnostic]);
  const parsed = parseJsonWithPositions(read.text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return defaults([
      codexDiagnostic(
        'error',
        'json_parse_error',
        `invalid JSON: ${message}`,
        manifest,
        { line, column },
        {
          source: 'codex_plugin',
        },
      ),
    ]);
  }
  const root0 = parsed.value;
  const locate = jsonLocator(root0);
  const diagnostics: Diagnostic[] = [];
  const nameNode = root0.kind === 'object' ? jsonEntry(root0, 'name')?.value : undefined;
  const name =
    nameNode?.kind === 'string' && String(nameNode.value).trim() !== '' ? String(nameNode.value) : fallbackName;
  const hooksNode = root0.kind === 'object' ? jsonEntry(root0, 'hooks')?.value : undefined;
  const defaultFile: PluginHookSource = {
    kind: 'file',
    rel: 'hooks/hooks.json',
    file: join(root, 'hooks', 'hooks.json'),
  };
  const sources: PluginHookSource[] = [];
  const escape = (entry: JsonNode, path: PathSeg[]) =>
    diagnostics.push(
      codexDiagnostic(
        'error',
        'path_escapes_root',
        `plugin hooks path ${entry.kind === 'string' ? q(String(entry.value)) : 'entry'} must start with "./" and stay inside the plugin root; Codex ignores it`,
        manifest,
        locate(path) ?? entry,
        { source: 'codex_plugin' },
      ),
    );
  const pathEntry = (entry: JsonNode, path: PathSeg[]) => {
    const p = entry.kind === 'string' ? String(entry.value) : '';
    if (!p.startsWith('./') || p.split(/[\\/]/).includes('..')) return escape(entry, path);
    const rel = p.slice(2).replace(/\\/g, '/').replace(/^\/+/, '');
    sources.push({ kind: 'file', rel, file: join(root, rel) });
  };
  if (hooksNode === undefined || hooksNode.kind === 'null') sources.push(defaultFile);
  else if (hooksNode.kind === 'object')
    sources.push({
      kind: 'inline',
      rel: 'plugin.json#hooks[0]',
      node: hooksNode,
      base: ['hooks'],
      locate,
      file: manifest,
    });
  else if (hooksNode.kind === 'array') {
    // `plugin.json#hooks[<i>]`: the i-th inline object, 0-based (codex.md §2.4).
    let inline = 0;
    hooksNode.items.forEach((item, i) => {
      if (item.kind === 'object')
        sources.push({
          kind: 'inline',
          rel: `plugin.json#hooks[${inline++}]`,
          node: item,
          base: ['hooks', i],
          locate,
          file: manifest,
        });
      else pathEntry(item, ['hooks', i]);
    });
    if (sources.length === 0) sources.push(defaultFile);
  } else {
    pathEntry(hooksNode, ['hooks']);
    if (sources.length === 0) sources.push(defaultFile);
  }
  return { name, manifest, sources, diagnostics, files: [manifest] };
}
