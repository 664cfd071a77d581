// `hooks validate FILE` for claude files (claude.md §7): the kind comes from the file's name and
// place — settings.json, settings.local.json, managed-settings.json, managed-settings.d/*.json,
// hooks.json, .claude-plugin/plugin.json, a SKILL.md with top-level `hooks`, a *.md at any depth
// under agents/ or commands/.
// A file is checked on its own: the gates and lists of other files are not applied.
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Diagnostic } from '../../declarations/diagnostics.js';
import { readSourceFile } from '../../declarations/source-file.js';
import { claudeDiagnostic } from './codes.js';
import { ruleHolds } from './releases.js';
import { parseFrontMatterText } from './front-matter.js';
import { headerEnvDiagnostics, urlAllowed } from './handlers.js';
import { parseJsonDoc } from './json-doc.js';
import { pluginDataDir, type ClaudeLocations } from './locations.js';
import type { ClaudePluginRef } from './model.js';
import { flagPluginId, hookFileOf, pluginManifestOf, readPluginHooks } from './plugins.js';
import { parseSettingsText, type SettingsFile } from './settings.js';

export type ClaudeFileKind =
  'managed' | 'settings' | 'local' | 'hooks' | 'manifest' | 'marketplace' | 'skill' | 'command' | 'agent';

/**
 * The `agents/` or `commands/` folder a `*.md` is in (claude.md §7): its parent folder, or, at any
 * depth, one in a `.claude` folder or a plugin root (other tools keep `agents/<name>/AGENT.md`).
 */
function markdownTreeOf(file: string): { kind: 'agent' | 'command'; dir: string } | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const name = basename(dir);
    if (name !== 'agents' && name !== 'commands') continue;
    const owner = dirname(dir);
    const claudeTree = basename(owner) === '.claude' || existsSync(join(owner, '.claude-plugin'));
    if (dir === dirname(file) || claudeTree) return { kind: name === 'agents' ? 'agent' : 'command', dir };
  }
  return undefined;
}

const inside = (dir: string, file: string) => {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..';
};

/** The claude kind of a file, or undefined when it is none of them. */
export function claudeFileKind(file: string, text: string): ClaudeFileKind | undefined {
  const name = basename(file);
  const parent = basename(dirname(file));
  if (name === 'managed-settings.json') return 'managed';
  if (parent === 'managed-settings.d' && name.endsWith('.json')) return 'managed';
  if (name === 'settings.json') return 'settings';
  if (name === 'settings.local.json') return 'local';
  if (name === 'plugin.json' && parent === '.claude-plugin') return 'manifest';
  if (name === 'marketplace.json' && parent === '.claude-plugin') return 'marketplace';
  if (name === 'hooks.json') {
    if (parent === 'hooks') return 'hooks';
    // Elsewhere only a file shaped like one: `{"hooks": ...}` (other tools have hooks.json too).
    return /^\s*\{\s*"(?:description|hooks)"/.test(text) ? 'hooks' : undefined;
  }
  if (name === 'SKILL.md') return /^hooks\s*:/m.test(frontMatterOf(text)) ? 'skill' : undefined;
  if (name.endsWith('.md')) return markdownTreeOf(file)?.kind;
  return undefined;
}

function frontMatterOf(text: string): string {
  const m = /^(---|\+\+\+)\r?\n([\s\S]*?)\r?\n\1/.exec(text);
  return m ? m[2]! : '';
}

/** The plugin a file inside `<root>/…` belongs to, when `<root>` looks like a plugin. */
function pluginOf(root: string, cl: ClaudeLocations): ClaudePluginRef | undefined {
  if (!existsSync(join(root, '.claude-plugin')) && !existsSync(join(root, 'hooks'))) return undefined;
  const cache = join(cl.configDir, 'plugins', 'cache');
  let id = basename(root);
  if (inside(cache, root)) {
    const [marketplace, name] = relative(cache, root).split(sep);
    if (marketplace && name) id = `${name}@${marketplace}`;
  }
  return { id, root, dataDir: pluginDataDir(cl, id), forceEnabled: false };
}

/** `text` is undefined when the file is not readable text: the read problem is its verdict. */
export async function validateClaudeFile(
  file: string,
  text: string | undefined,
  cl: ClaudeLocations,
): Promise<Diagnostic[] | undefined> {
  const kind = claudeFileKind(file, text ?? '');
  if (kind === undefined) return undefined;
  if (text === undefined) {
    const read = await readSourceFile(file);
    return read.kind === 'bad' ? [read.diagnostic] : [];
  }
  switch (kind) {
    case 'managed':
    case 'settings':
    case 'local': {
      const scope = kind !== 'settings' ? kind : dirname(file) === cl.configDir ? 'user' : 'project';
      const managed = scope === 'managed';
      const origin =
        managed && basename(dirname(file)) === 'managed-settings.d' ? `managed.d/${basename(file)}` : scope;
      return settingsChecks(parseSettingsText(text, file, { source: `claude_${scope}`, origin, managed }));
    }
    case 'hooks': {
      const root = basename(dirname(file)) === 'hooks' ? dirname(dirname(file)) : dirname(file);
      const plugin = pluginOf(root, cl) ?? {
        id: basename(root),
        root,
        dataDir: pluginDataDir(cl, basename(root)),
        forceEnabled: false,
      };
      const read = parseJsonDoc(text, file, 'claude_plugin');
      if (read.kind !== 'json') return read.kind === 'bad' ? [read.diagnostic] : [];
      const hooks = hookFileOf(read.doc, `plugin/${plugin.id}`, plugin);
      const out = [...hooks.diagnostics];
      for (const { raw } of hooks.handlers) out.push(...headerEnvDiagnostics(raw, file, 'claude_plugin', undefined));
      return out;
    }
    case 'marketplace': {
      // A plugin marketplace names plugins and declares no hooks: only that it parses is checked.
      const read = parseJsonDoc(text, file, 'claude_plugin');
      return read.kind === 'bad' ? [read.diagnostic] : [];
    }
    case 'manifest': {
      const root = dirname(dirname(file));
      const manifest = pluginManifestOf(parseJsonDoc(text, file, 'claude_plugin'), file);
      if (manifest.data === undefined) return manifest.diagnostics;
      const id = pluginOf(root, cl)?.id ?? flagPluginId(root, manifest);
      const hooks = await readPluginHooks({ id, root, dataDir: pluginDataDir(cl, id), forceEnabled: false }, manifest);
      return hooks.diagnostics.filter((d) => d.file === file);
    }
    case 'skill':
    case 'command':
    case 'agent': {
      const folderName = kind === 'skill' ? basename(dirname(file)) : basename(file, '.md');
      const skillsOrAgentsDir = kind === 'skill' ? dirname(dirname(file)) : markdownTreeOf(file)!.dir;
      const ownerRoot = dirname(skillsOrAgentsDir);
      const plugin = existsSync(join(ownerRoot, '.claude-plugin')) ? pluginOf(ownerRoot, cl) : undefined;
      const scope = plugin ? plugin.id : inside(cl.configDir, file) ? 'user' : 'project';
      const pluginName = plugin ? plugin.id.split('@')[0]! : '';
      const fm = parseFrontMatterText(text, file, {
        source: `claude_${kind}`,
        kind,
        fallbackName: folderName,
        ...(kind === 'command' ? { fixedName: true } : {}),
        originOf: (name) => `${kind}/${scope}/${plugin && kind !== 'agent' ? `${pluginName}:` : ''}${name}`,
        ...(plugin && kind !== 'agent' ? { plugin } : {}),
        ...(plugin && kind === 'agent' ? { detectOnly: true } : {}),
      });
      if (plugin && kind === 'agent' && fm.hasHooks) {
        return [
          ...fm.diagnostics,
          claudeDiagnostic(
            'warning',
            'claude_plugin_agent_hooks_ignored',
            `hooks in plugin subagent ${JSON.stringify(fm.name)} are ignored by Claude Code`,
            file,
            { line: 1 },
            { source: 'claude_agent' },
          ),
        ];
      }
      const out = [...fm.diagnostics];
      if (kind === 'agent' && !plugin && fm.name.includes(':') && ruleHolds('agent_name_colon_refused')) {
        out.push(
          claudeDiagnostic(
            'error',
            'claude_agent_name_invalid',
            `agent name ${JSON.stringify(fm.name)} contains ":"; Claude Code does not load this file`,
            file,
            { line: 1 },
            { source: 'claude_agent' },
          ),
        );
      }
      for (const raw of fm.handlers) out.push(...headerEnvDiagnostics(raw, file, `claude_${kind}`, undefined));
      return out;
    }
  }
}

/** The checks that need the whole file: its own http lists and disableAllHooks. */
function settingsChecks(f: SettingsFile): Diagnostic[] {
  const out = [...f.diagnostics];
  if (!f.usable) return out;
  if (f.values.disableAllHooks === true) {
    out.push(
      claudeDiagnostic(
        'warning',
        'claude_hooks_disabled',
        `disableAllHooks is true in ${f.file}: ${f.source === 'claude_managed' ? 'all' : 'non-managed'} hooks do not run`,
        f.file,
        f.locate(['disableAllHooks']),
        { source: f.source },
      ),
    );
  }
  const urls = f.values.allowedHttpHookUrls;
  for (const raw of f.handlers) {
    if (raw.type !== 'http' || !raw.ok) continue;
    const url = typeof raw.handler.url === 'string' ? raw.handler.url : '';
    if (urls !== undefined && !urlAllowed(url, urls)) {
      out.push(
        claudeDiagnostic(
          'warning',
          'claude_url_not_allowed',
          `url ${JSON.stringify(url)} matches no allowedHttpHookUrls pattern; the hook does not run`,
          f.file,
          raw.fieldAt(['url']) ?? raw.at,
          { source: f.source, hook: raw.name },
        ),
      );
    }
    out.push(...headerEnvDiagnostics(raw, f.file, f.source, f.values.httpHookAllowedEnvVars));
  }
  return out;
}
