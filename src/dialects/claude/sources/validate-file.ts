// `hooks validate FILE` for claude files (claude.md §7): the kind comes from the file's name and
// place — settings.json, settings.local.json, managed-settings.json, managed-settings.d/*.json,
// hooks.json, .claude-plugin/plugin.json, a SKILL.md with top-level `hooks`, a *.md at any depth
// under agents/ or commands/.
// A file is checked on its own: the gates and lists of other files are not applied.
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { readSourceFile } from '../../../declarations/source-file.js';
import { claudeEvent } from '../catalog.js';
import { claudeDiagnostic } from '../codes.js';
import { ruleHolds } from '../releases.js';
import { parseFrontMatterText } from './front-matter.js';
import { headerEnvDiagnostics, urlAllowed, type RawHandler } from './handlers.js';
import { scriptDiagnostic, type ScriptCheckContext } from './script-check.js';
import { parseJsonDoc } from '../json-doc.js';
import { pluginDataDir, type ClaudeLocations } from '../locations.js';
import type { ClaudePluginRef } from '../model.js';
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

/**
 * The claude kind of a file, or undefined when it is none of them: by name and place, else by
 * content (a settings file under another name, as `claude --settings FILE` takes it). `forced`
 * (`--dialect claude`): any other JSON file is read as settings, a Markdown file with front
 * matter as a skill.
 */
export function claudeFileKind(file: string, text: string, forced = false): ClaudeFileKind | undefined {
  const byName = claudeFileKindByName(file, text);
  if (byName !== undefined) return byName;
  const json = basename(file).toLowerCase().endsWith('.json');
  if (json && (forced || looksLikeClaudeSettings(text))) return 'settings';
  if (forced && basename(file).toLowerCase().endsWith('.md') && frontMatterOf(text) !== '') return 'skill';
  return undefined;
}

/** Top-level keys only Claude Code settings have (cosh-extension.json and extension.json have none of them). */
const CLAUDE_SETTINGS_KEYS = new Set([
  'permissions',
  'enabledPlugins',
  'extraKnownMarketplaces',
  'disableAllHooks',
  'allowManagedHooksOnly',
  'strictPluginOnlyCustomization',
  'allowedHttpHookUrls',
  'httpHookAllowedEnvVars',
  'statusLine',
  'apiKeyHelper',
  'outputStyle',
  'includeCoAuthoredBy',
  'cleanupPeriodDays',
  'forceLoginMethod',
  'enableAllProjectMcpServers',
]);

/**
 * A JSON object that is a Claude Code settings file by content: no top-level `name` (a cosh
 * extension's, which cosh requires) nor `extension`/`resources` (a CompozyOS extension.json's),
 * and either a key only Claude settings have, a `$schema` naming claude-code-settings, or a
 * `hooks` object keyed by a Claude event name.
 */
export function looksLikeClaudeSettings(text: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // Not JSON: only the shape of its first key can tell (a settings file with a trailing comma).
    return /^\s*\{\s*"(?:\$schema"\s*:\s*"[^"]*claude-code-settings|permissions"|enabledPlugins"|disableAllHooks")/.test(
      text.replace(/^\uFEFF/, ''),
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const o = data as Record<string, unknown>;
  if ('name' in o || 'extension' in o || 'resources' in o) return false;
  if (Object.keys(o).some((k) => CLAUDE_SETTINGS_KEYS.has(k))) return true;
  if (typeof o.$schema === 'string' && o.$schema.includes('claude-code-settings')) return true;
  const hooks = o.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return false;
  return Object.keys(hooks).some((k) => claudeEvent(k) !== undefined);
}

function claudeFileKindByName(file: string, text: string): ClaudeFileKind | undefined {
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
  opts: { forced?: boolean } = {},
): Promise<Diagnostic[] | undefined> {
  const kind = claudeFileKind(file, text ?? '', opts.forced === true);
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
      const checks = settingsChecks(parseSettingsText(text, file, { source: `claude_${scope}`, origin, managed }));
      return [
        ...checks.diagnostics,
        ...scriptChecks(checks.handlers, {
          workspace: projectOf(file, cl),
          home: cl.home,
          file,
          source: `claude_${scope}`,
        }),
      ];
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
      out.push(
        ...scriptChecks(
          hooks.handlers.map((h) => h.raw),
          { workspace: cl.workspace, home: cl.home, plugin, file, source: 'claude_plugin' },
        ),
      );
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
      for (const raw of fm.handlers)
        if (raw.stray === undefined) out.push(...headerEnvDiagnostics(raw, file, `claude_${kind}`, undefined));
      out.push(
        ...scriptChecks(fm.handlers, {
          workspace: plugin ? cl.workspace : projectOf(file, cl),
          home: cl.home,
          ...(plugin ? { plugin } : {}),
          file,
          source: `claude_${kind}`,
        }),
      );
      return out;
    }
  }
}

/**
 * The project a file belongs to, where Claude Code runs its hooks: `<project>/.claude/…` (not the
 * user's config folder), else the workspace.
 */
function projectOf(file: string, cl: ClaudeLocations): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === '.claude' && dir !== cl.configDir) return dirname(dir);
  }
  return cl.workspace;
}

/** claude_command_not_found for every handler that loads (not for one with errors). */
function scriptChecks(handlers: readonly RawHandler[], ctx: ScriptCheckContext): Diagnostic[] {
  return handlers.flatMap((raw) => {
    const d = raw.ok ? scriptDiagnostic(raw, ctx) : undefined;
    return d === undefined ? [] : [d];
  });
}

/** The checks that need the whole file: its own http lists and disableAllHooks; the handlers that load. */
function settingsChecks(f: SettingsFile): { diagnostics: Diagnostic[]; handlers: RawHandler[] } {
  const out = [...f.diagnostics];
  if (!f.usable) return { diagnostics: out, handlers: [] };
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
    if (raw.type !== 'http' || !raw.ok || raw.stray !== undefined) continue;
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
  return { diagnostics: out, handlers: f.values.disableAllHooks === true ? [] : f.handlers };
}
