// Every claude source (claude.md §1) resolved into declarations in dispatch order, with the gates
// of §2.4 and the duplicate rule of §2.3 as statuses (`list --all`), the diagnostics of §2.5, and
// the context dispatch reads (merged env, http gates, SessionEnd budget).
import { existsSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Declaration, DeclarationStatus, OrderedDeclaration } from '../../../declarations/model.js';
import { HookctlError, ExitCode } from '../../../errors.js';
import type { Locations } from '../../../paths.js';
import { displayPath } from '../../../display-path.js';
import { isInside } from '../../../declarations/path-inside.js';
import type { Position } from '../../../declarations/source-file.js';
import { claudeEvents } from '../catalog.js';
import { claudeDiagnostic } from '../codes.js';
import { interceptedEvents, moduleFile, scanModules, type ClaudeMod } from './mods.js';
import { ruleHolds } from '../releases.js';
import { scriptDiagnostic } from './script-check.js';
import { makeDeclaration, type HandlerOrigin } from './declaration.js';
import { agentFiles, commandFiles, readFrontMatterFile, skillFiles } from './front-matter.js';
import { handlerIdentity, headerEnvDiagnostics, urlAllowed, type RawHandler } from './handlers.js';
import {
  claudeLocations,
  localSettingsFiles,
  managedDropInDir,
  managedSettingsFile,
  pluginCacheDir,
  pluginDataDir,
  projectAgentsDirs,
  projectCommandsDirs,
  projectSettingsFile,
  projectSkillsDirs,
  userAgentsDir,
  userCommandsDir,
  userSettingsFile,
  userSkillsDir,
  type ClaudeLocations,
} from '../locations.js';
import type { ClaudeContext, ClaudePluginRef, ClaudeSource } from '../model.js';
import {
  flagPluginId,
  installedPlugins,
  pluginCommandFiles,
  readPluginHooks,
  readPluginManifest,
  type PluginCopy,
  type PluginManifest,
} from './plugins.js';
import { mergeManagedTier, readSettingsFile, union, type FromFile, type SettingsFile } from './settings.js';

/** DialectCatalog.context of this dialect, with what this half adds to the shared model. */
export interface ClaudeLoadContext extends ClaudeContext {
  workspace: string;
  stateDir: string;
  pluginDirs: string[];
}

export interface ClaudeCatalog {
  declarations: OrderedDeclaration[];
  diagnostics: Diagnostic[];
  files: string[];
  context: ClaudeLoadContext;
}

export interface ClaudeLoadOptions {
  /** --plugin-dir, in flag order. */
  pluginDirs?: readonly string[];
  cwd?: string;
}

/**
 * The local workspace copy as it counts beside the git root's copy: the root copy wins per
 * top-level key (claude.md §1), so a key the root sets is dropped here, not merged per entry.
 */
function underRootCopy(ws: SettingsFile | undefined, root: SettingsFile | undefined): SettingsFile | undefined {
  if (ws === undefined || !root?.usable) return ws;
  const values = Object.fromEntries(
    Object.entries(ws.values).filter(([key]) => (root.values as Record<string, unknown>)[key] === undefined),
  ) as SettingsFile['values'];
  return { ...ws, values };
}

/** A handler on its way to a declaration: where it is from, and a status decided early. */
interface Entry {
  raw: RawHandler;
  from: HandlerOrigin;
  /** Settings-file hooks take part in the duplicate rule. */
  settings: boolean;
  /** The plugin the hook belongs to (its hooks or its skills' hooks). */
  pluginId?: string;
  /** Row 1 of §2.4: the plugin is not enabled. */
  notEnabled?: string;
  /** Row 6: shadowed, or a local workspace copy under a root copy that sets hooks. */
  overridden?: string;
}

const q = (s: string): string => JSON.stringify(s);

export async function loadClaudeSources(
  loc: Pick<Locations, 'workspace'> & Partial<Pick<Locations, 'pluginDirs' | 'stateDir' | 'additionalDirs'>>,
  env: NodeJS.ProcessEnv,
  opts: ClaudeLoadOptions = {},
): Promise<ClaudeCatalog> {
  const cl = claudeLocations(loc, env, opts.pluginDirs ?? loc.pluginDirs ?? [], opts.cwd);
  await requirePluginDirs(cl.pluginDirs);
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];

  // ---- settings files ----
  const dropIns = await jsonFilesIn(managedDropInDir(cl));
  const locals = localSettingsFiles(cl);
  const [managedMain, managedD, user, project, ...localFiles] = await Promise.all([
    readSettingsFile(managedSettingsFile(cl), { source: 'claude_managed', origin: 'managed', managed: true }),
    Promise.all(
      dropIns.map((name) =>
        readSettingsFile(join(managedDropInDir(cl), name), {
          source: 'claude_managed',
          origin: `managed.d/${name}`,
          managed: true,
        }),
      ),
    ),
    readSettingsFile(userSettingsFile(cl), { source: 'claude_user', origin: 'user', managed: false }),
    readSettingsFile(projectSettingsFile(cl), { source: 'claude_project', origin: 'project', managed: false }),
    ...locals.map((l) => readSettingsFile(l.file, { source: 'claude_local', origin: l.origin, managed: false })),
  ]);
  const managedFiles = [managedMain, ...managedD].filter((f): f is SettingsFile => f !== undefined);
  const localRoot = localFiles[0];
  const localWorkspace = locals.length > 1 ? localFiles[1] : undefined;
  const settingsInOrder = [...managedFiles, user, project, localRoot, localWorkspace].filter(
    (f): f is SettingsFile => f !== undefined,
  );
  for (const f of settingsInOrder) {
    files.push(f.file);
    diagnostics.push(...f.diagnostics);
  }
  const tier = mergeManagedTier(managedFiles);
  // Precedence, highest first: managed > local (root copy, then workspace copy) > project > user.
  const layered = [localRoot, underRootCopy(localWorkspace, localRoot), project, user].filter(
    (f): f is SettingsFile => f?.usable === true,
  );

  const disableAll: FromFile<boolean> | undefined =
    tier.disableAllHooks ??
    layered
      .filter((f) => f.values.disableAllHooks !== undefined)
      .map((f) => ({ value: f.values.disableAllHooks!, file: f.file }))[0];
  const disableAllIsManaged = disableAll !== undefined && tier.disableAllHooks === disableAll;

  const settingsEnv: Record<string, string> = {};
  for (const f of [...layered].reverse()) Object.assign(settingsEnv, f.values.env ?? {});
  Object.assign(settingsEnv, tier.env);

  const enabled: Record<string, FromFile<boolean>> = {};
  for (const f of [...layered].reverse()) {
    for (const [id, on] of Object.entries(f.values.enabledPlugins ?? {})) enabled[id] = { value: on, file: f.file };
  }
  Object.assign(enabled, tier.enabledPlugins);
  const forceEnabled = (id: string) => tier.enabledPlugins[id]?.value === true;

  const listUnion = (key: 'allowedHttpHookUrls' | 'httpHookAllowedEnvVars'): string[] | undefined => {
    const lists = [tier[key], ...layered.map((f) => f.values[key])].filter((l): l is string[] => l !== undefined);
    return lists.length === 0 ? undefined : lists.reduce((a, b) => union(a, b), [] as string[]);
  };
  const allowedHttpHookUrls = listUnion('allowedHttpHookUrls');
  const httpHookAllowedEnvVars = listUnion('httpHookAllowedEnvVars');

  // ---- entries in dispatch order ----
  const entries: Entry[] = [];
  const settingsEntry = (f: SettingsFile | undefined, overridden?: string) => {
    if (!f?.usable) return;
    for (const raw of f.handlers) {
      entries.push({
        raw,
        from: { source: f.source, origin: f.origin, file: f.file, kind: 'settings' },
        settings: true,
        ...(overridden ? { overridden } : {}),
      });
    }
  };
  for (const f of managedFiles) settingsEntry(f);
  settingsEntry(user);
  settingsEntry(project);
  settingsEntry(localRoot);
  settingsEntry(
    localWorkspace,
    localRoot?.usable && localRoot.setsHooks ? `the git root's settings.local.json sets "hooks"` : undefined,
  );

  // ---- plugins ----
  const flagCopies: PluginCopy[] = [];
  const manifests = new Map<string, PluginManifest>();
  for (const root of await pluginRoots(cl.pluginDirs)) {
    const manifest = await readPluginManifest(root);
    manifests.set(root, manifest);
    const id = flagPluginId(root, manifest);
    flagCopies.push({ id, name: id, root, fromFlag: true });
  }
  const installed = await installedPlugins(pluginCacheDir(cl));
  const installedIds = new Set(installed.map((p) => p.id));
  for (const [id, on] of Object.entries(enabled)) {
    const bareName = id.includes('@') ? id.slice(0, id.lastIndexOf('@')) : id;
    if (on.value && !installedIds.has(id) && !flagCopies.some((p) => p.id === bareName)) {
      const f = settingsInOrder.find((s) => s.file === on.file);
      diagnostics.push(
        claudeDiagnostic(
          'warning',
          'claude_plugin_not_installed',
          `enabledPlugins enables ${q(id)}, but no copy is installed under ${pluginCacheDir(cl)}`,
          on.file,
          f?.locate(['enabledPlugins', id]),
          { source: f?.source },
        ),
      );
    }
  }
  const plugins = [...flagCopies, ...installed];
  const modCandidates: {
    id: string;
    forceEnabled: boolean;
    file: string;
    at: Position;
    modules: string[];
    moduleFiles: string[];
    root: string;
  }[] = [];
  const pluginSkillEntries: Entry[] = [];
  const pluginCommandEntries: Entry[] = [];
  for (const copy of plugins) {
    const manifest = manifests.get(copy.root) ?? (await readPluginManifest(copy.root));
    const shadow = copy.fromFlag ? undefined : flagCopies.find((p) => p.id === copy.name);
    const setting = enabled[copy.id]?.value;
    const active =
      copy.fromFlag || (shadow === undefined && (setting ?? manifest.data?.defaultEnabled === true) === true);
    const ref: ClaudePluginRef = {
      id: copy.id,
      root: copy.root,
      dataDir: pluginDataDir(cl, copy.id),
      forceEnabled: !copy.fromFlag && forceEnabled(copy.id),
    };
    const notEnabled = !active && shadow === undefined ? `plugin ${q(copy.id)} is not enabled` : undefined;
    const overridden = shadow ? `shadowed by ${displayPath(shadow.root)}` : undefined;
    const hooks = await readPluginHooks(ref, manifest);
    if (active) {
      diagnostics.push(...hooks.diagnostics);
      files.push(...hooks.files);
    }
    if (hooks.modules !== undefined && active && shadow === undefined && !hooks.failed) {
      const existing: string[] = [];
      const moduleFiles: string[] = [];
      for (const p of hooks.modules.paths) {
        const file = moduleFile(copy.root, p);
        const at = hooks.modules.at;
        if (!isInside(copy.root, file) || (await linksOutOf(copy.root, file))) {
          diagnostics.push(
            claudeDiagnostic(
              'error',
              'path_escapes_root',
              `hooks module ${q(p)} is outside the plugin root`,
              hooks.modules.file,
              at,
              {
                source: 'claude_plugin',
              },
            ),
          );
        } else if (!existsSync(file)) {
          diagnostics.push(
            claudeDiagnostic(
              'warning',
              'claude_mod_module_missing',
              `plugin ${q(copy.id)} lists hooks module ${q(p)}, which does not exist; Claude Code does not load it`,
              hooks.modules.file,
              at,
              { source: 'claude_plugin' },
            ),
          );
        } else {
          existing.push(p);
          moduleFiles.push(file);
        }
      }
      modCandidates.push({
        id: copy.id,
        forceEnabled: ref.forceEnabled,
        file: hooks.modules.file,
        at: hooks.modules.at,
        modules: existing,
        moduleFiles,
        root: copy.root,
      });
    }
    // A failed plugin's hooks come too: readPluginHooks marked each invalid (SPEC §7.2).
    for (const { raw, ctx } of hooks.handlers) {
      entries.push({
        raw,
        from: { source: 'claude_plugin', origin: ctx.origin, file: ctx.file, kind: 'plugin', plugin: ref },
        settings: false,
        pluginId: copy.id,
        ...(notEnabled ? { notEnabled } : {}),
        ...(overridden ? { overridden } : {}),
      });
    }
    // Plugin skills, in plugin order; plugin subagents only warn.
    for (const { file, folder } of await skillFiles(join(copy.root, 'skills'))) {
      const fm = readFrontMatterFile(file, {
        source: 'claude_skill',
        kind: 'skill',
        fallbackName: folder,
        originOf: (name) => `skill/${copy.id}/${copy.name}:${name}`,
        plugin: ref,
      });
      if (fm.missing) continue;
      if (active) {
        diagnostics.push(...fm.diagnostics);
        if (fm.hasHooks) files.push(file);
      }
      for (const raw of fm.handlers) {
        pluginSkillEntries.push({
          raw,
          from: {
            source: 'claude_skill',
            origin: `skill/${copy.id}/${copy.name}:${fm.name}`,
            file,
            kind: 'skill',
            plugin: ref,
            skill: `${copy.name}:${fm.name}`,
            skillSource: 'plugin',
          },
          settings: false,
          pluginId: copy.id,
          ...(notEnabled ? { notEnabled } : {}),
          ...(overridden ? { overridden } : {}),
        });
      }
    }
    // Plugin commands, in plugin order; a plugin skill of the same name beats its command.
    const pluginSkills = new Set(pluginSkillEntries.filter((e) => e.pluginId === copy.id).map((e) => e.from.skill));
    for (const { file, stem } of await pluginCommandFiles(copy.root, manifest)) {
      const fm = readFrontMatterFile(file, {
        source: 'claude_command',
        kind: 'command',
        fallbackName: stem,
        fixedName: true,
        originOf: (name) => `command/${copy.id}/${copy.name}:${name}`,
        plugin: ref,
      });
      if (fm.missing) continue;
      if (active) {
        diagnostics.push(...fm.diagnostics);
        if (fm.hasHooks) files.push(file);
      }
      const name = `${copy.name}:${fm.name}`;
      const shadowedBySkill = pluginSkills.has(name) ? `shadowed by skill ${q(name)}` : undefined;
      for (const raw of fm.handlers) {
        pluginCommandEntries.push({
          raw,
          from: {
            source: 'claude_command',
            origin: `command/${copy.id}/${name}`,
            file,
            kind: 'command',
            plugin: ref,
            skill: name,
            skillSource: 'plugin',
          },
          settings: false,
          pluginId: copy.id,
          ...(notEnabled ? { notEnabled } : {}),
          ...(overridden || shadowedBySkill ? { overridden: overridden ?? shadowedBySkill } : {}),
        });
      }
    }
    if (active) {
      for (const { file, stem } of await agentFiles(join(copy.root, 'agents'))) {
        const fm = readFrontMatterFile(file, {
          source: 'claude_agent',
          kind: 'agent',
          fallbackName: stem,
          originOf: (name) => `agent/${copy.id}/${name}`,
          detectOnly: true,
        });
        if (fm.hasHooks) {
          diagnostics.push(
            claudeDiagnostic(
              'warning',
              'claude_plugin_agent_hooks_ignored',
              `hooks in plugin subagent ${q(fm.name)} are ignored by Claude Code`,
              file,
              { line: 1 },
              { source: 'claude_agent' },
            ),
          );
        }
      }
    }
  }

  // ---- skills, commands and agents: project folders (nearest first) shadow user ----
  const projectScopes = (dirs: string[], source: ClaudeSource): FrontMatterScope[] =>
    dirs.map((dir) => ({ scope: 'project', dir, source }));
  const skillNames = new Map<string, Map<string, string>>();
  entries.push(
    ...(await frontMatterEntries(
      'skill',
      [
        ...projectScopes(projectSkillsDirs(cl), 'claude_skill'),
        { scope: 'user', dir: userSkillsDir(cl), source: 'claude_skill' },
      ],
      diagnostics,
      files,
      skillNames,
    )),
    ...pluginSkillEntries,
    ...(await frontMatterEntries(
      'command',
      [
        ...projectScopes(projectCommandsDirs(cl), 'claude_command'),
        { scope: 'user', dir: userCommandsDir(cl), source: 'claude_command' },
      ],
      diagnostics,
      files,
      skillNames,
    )),
    ...pluginCommandEntries,
    ...(await frontMatterEntries(
      'agent',
      [
        ...projectScopes(projectAgentsDirs(cl), 'claude_agent'),
        { scope: 'user', dir: userAgentsDir(cl), source: 'claude_agent' },
      ],
      diagnostics,
      files,
    )),
  );

  // ---- gates (§2.4, first row wins, overridden last) ----
  const strict = tier.strictPluginOnlyCustomization;
  const strictCovers = (surface: string) =>
    strict !== undefined && (strict.value === true || (Array.isArray(strict.value) && strict.value.includes(surface)));
  const strictBlocksHooks = strictCovers('hooks');
  // "skills" covers user and project skills and slash commands, "agents" user and project
  // subagents; a plugin's keep running (claude.md §2.4).
  const strictBlocksSkills = strictCovers('skills');
  const strictBlocksAgents = strictCovers('agents');
  const managedOnly = tier.allowManagedHooksOnly?.value === true ? tier.allowManagedHooksOnly : undefined;
  const privileged = (e: Entry) =>
    e.from.source === 'claude_managed' || (e.pluginId !== undefined && e.from.plugin?.forceEnabled === true);

  if (disableAll?.value === true) {
    const f = settingsInOrder.find((s) => s.file === disableAll.file);
    diagnostics.push(
      claudeDiagnostic(
        'warning',
        'claude_hooks_disabled',
        `disableAllHooks is true in ${displayPath(disableAll.file)}: ${disableAllIsManaged ? 'all' : 'non-managed'} hooks do not run`,
        disableAll.file,
        f?.locate(['disableAllHooks']),
        { source: f?.source },
      ),
    );
  }

  const statusOf = (e: Entry): { status: DeclarationStatus; why?: string } => {
    if (e.notEnabled) return { status: 'disabled', why: e.notEnabled };
    if (disableAll?.value === true && (disableAllIsManaged || !privileged(e))) {
      return { status: 'disabled', why: `disableAllHooks is true in ${displayPath(disableAll.file)}` };
    }
    if (managedOnly && !privileged(e)) {
      return { status: 'blocked', why: `allowManagedHooksOnly is true in ${displayPath(managedOnly.file)}` };
    }
    if (strictBlocksHooks && e.settings && e.from.source !== 'claude_managed') {
      return {
        status: 'blocked',
        why: `strictPluginOnlyCustomization blocks hooks from settings files (${displayPath(strict!.file)})`,
      };
    }
    const outsidePlugins = e.pluginId === undefined;
    if (
      strictBlocksSkills &&
      outsidePlugins &&
      (e.from.source === 'claude_skill' || e.from.source === 'claude_command')
    ) {
      return {
        status: 'blocked',
        why: `strictPluginOnlyCustomization blocks skills and commands outside plugins (${displayPath(strict!.file)})`,
      };
    }
    if (strictBlocksAgents && outsidePlugins && e.from.source === 'claude_agent') {
      return {
        status: 'blocked',
        why: `strictPluginOnlyCustomization blocks agents outside plugins (${displayPath(strict!.file)})`,
      };
    }
    if (e.raw.type === 'http' && allowedHttpHookUrls !== undefined) {
      const url = typeof e.raw.handler.url === 'string' ? e.raw.handler.url : '';
      if (!urlAllowed(url, allowedHttpHookUrls))
        return { status: 'blocked', why: 'url matches no allowedHttpHookUrls pattern' };
    }
    if (e.overridden) return { status: 'overridden', why: e.overridden };
    return { status: 'active' };
  };

  // §2.3: a handler in more than one settings file runs once, the first copy in dispatch order;
  // async ones are never deduplicated (§5.9).
  const firstCopy = new Map<string, { file: string; name: string }>();
  const declarations: Declaration[] = [];
  const reported = new Set(files);
  let sessionEndMaxTimeoutS: number | undefined;
  for (const e of entries) {
    // A handler with errors never runs, but stays visible with them (SPEC §7.2); a plugin copy
    // that is not enabled or is shadowed says that instead, as its errors are not reported.
    if (!e.raw.ok && !e.notEnabled && !(e.pluginId !== undefined && e.overridden)) {
      const errors = e.raw.errors ?? [];
      const decl = makeDeclaration(e.raw, e.from, cl.workspace, 'invalid', errors[0]?.message ?? 'invalid hook');
      if (errors.length > 0) decl.diagnostics = errors;
      declarations.push(decl);
      continue;
    }
    // Written beside `hooks` instead of under it: Claude Code never reads it (the warning says so).
    if (e.raw.stray !== undefined) {
      declarations.push(makeDeclaration(e.raw, e.from, cl.workspace, 'skipped', e.raw.stray));
      continue;
    }
    let { status, why } = statusOf(e);
    const isAsync = e.raw.type === 'command' && (e.raw.handler.async === true || e.raw.handler.asyncRewake === true);
    if (status === 'active' && e.settings && !isAsync) {
      const key = handlerIdentity(e.raw);
      const first = firstCopy.get(key);
      if (first === undefined) firstCopy.set(key, { file: e.from.file, name: e.raw.name });
      else if (first.file !== e.from.file) {
        status = 'overridden';
        why = `same handler as ${first.name}; Claude Code runs it once`;
      }
    }
    if (e.raw.type === 'http' && reported.has(e.from.file)) {
      const url = typeof e.raw.handler.url === 'string' ? e.raw.handler.url : '';
      if (allowedHttpHookUrls !== undefined && !urlAllowed(url, allowedHttpHookUrls)) {
        diagnostics.push(
          claudeDiagnostic(
            'warning',
            'claude_url_not_allowed',
            `url ${q(url)} matches no allowedHttpHookUrls pattern; the hook does not run`,
            e.from.file,
            e.raw.fieldAt(['url']) ?? e.raw.at,
            { source: e.from.source, hook: e.raw.name },
          ),
        );
      }
      diagnostics.push(...headerEnvDiagnostics(e.raw, e.from.file, e.from.source, httpHookAllowedEnvVars));
    }
    if (
      status === 'active' &&
      e.settings &&
      e.raw.event === 'SessionEnd' &&
      typeof e.raw.handler.timeout === 'number'
    ) {
      sessionEndMaxTimeoutS = Math.max(sessionEndMaxTimeoutS ?? 0, e.raw.handler.timeout);
    }
    if (status === 'active' && reported.has(e.from.file)) {
      const script = scriptDiagnostic(e.raw, {
        workspace: cl.workspace,
        home: cl.home,
        ...(e.from.plugin ? { plugin: e.from.plugin } : {}),
        file: e.from.file,
        source: e.from.source,
      });
      if (script !== undefined) diagnostics.push(script);
    }
    const decl = makeDeclaration(e.raw, e.from, cl.workspace, status, why);
    // Loaded, but it never fires (a matcher off by case, a missing script): list --all, info and
    // fire --dry-run say why, as they do for a hook that does not load.
    const notices = e.raw.notices ?? [];
    if (notices.length > 0) {
      decl.diagnostics = notices;
      decl.why ??= notices[0]!.message;
    }
    declarations.push(decl);
  }

  // Mods (claude.md §1.1): loaded with an active plugin whose hooks no gate stops; never while
  // disableAllHooks is in effect. Each says which events it may intercept.
  const mods: ClaudeMod[] = [];
  if (disableAll?.value !== true) {
    const catalogEvents = claudeEvents().map((e) => e.name);
    for (const m of modCandidates) {
      if (managedOnly && !m.forceEnabled) continue;
      const registers = scanModules(m.root, m.moduleFiles);
      const events = interceptedEvents(registers, catalogEvents);
      mods.push({ plugin: m.id, modules: m.modules, registers, events });
      if (events.length === 0) continue;
      diagnostics.push(
        claudeDiagnostic(
          'warning',
          'claude_mod_intercepts',
          `plugin ${q(m.id)} is a mod; its hooks module registers ${registers.map(q).join(', ')}, so it may intercept ${events.join(', ')}; hookctl does not run mods`,
          m.file,
          m.at,
          { source: 'claude_plugin' },
        ),
      );
    }
  }
  for (const d of declarations) {
    (d.extra as { intercepted_by?: string[] }).intercepted_by = mods
      .filter((m) => m.events.includes(d.event))
      .map((m) => m.plugin);
  }

  const context: ClaudeLoadContext = {
    mods,
    settingsEnv,
    configDir: cl.configDir,
    workspace: cl.workspace,
    stateDir: cl.stateDir,
    pluginDirs: cl.pluginDirs,
    ...(allowedHttpHookUrls !== undefined ? { allowedHttpHookUrls } : {}),
    ...(httpHookAllowedEnvVars !== undefined ? { httpHookAllowedEnvVars } : {}),
    ...(sessionEndMaxTimeoutS !== undefined ? { sessionEndMaxTimeoutS } : {}),
  };
  return { declarations: numberActive(declarations), diagnostics, files, context };
}

interface FrontMatterScope {
  scope: 'project' | 'user';
  dir: string;
  source: ClaudeSource;
}

/**
 * The hooks of every skill, command or agent of the scopes, nearest first (claude.md §1): the
 * first definition of a name stays and the later ones are `overridden`, shadowed by the first. A
 * command is also shadowed by a skill of the same name and scope (`skillNames`, filled by the
 * skills' call). Two agents of one `agents/` tree with the same name: the first path (byte order)
 * stays, and validate warns. An agent name with `:` does not load (2.1.218).
 */
async function frontMatterEntries(
  kind: 'skill' | 'command' | 'agent',
  scopes: FrontMatterScope[],
  diagnostics: Diagnostic[],
  files: string[],
  skillNames?: Map<string, Map<string, string>>,
): Promise<Entry[]> {
  const out: Entry[] = [];
  const seen = new Map<string, string>();
  for (const { scope, dir, source } of scopes) {
    const list =
      kind === 'skill'
        ? (await skillFiles(dir)).map((s) => ({ file: s.file, fallback: s.folder }))
        : (await (kind === 'command' ? commandFiles(dir) : agentFiles(dir))).map((a) => ({
            file: a.file,
            fallback: a.stem,
          }));
    const inThisTree = new Map<string, string>();
    for (const { file, fallback } of list) {
      const fm = readFrontMatterFile(file, {
        source,
        kind,
        fallbackName: fallback,
        ...(kind === 'command' ? { fixedName: true } : {}),
        originOf: (name) => `${kind}/${scope}/${name}`,
      });
      if (fm.missing) continue;
      diagnostics.push(...fm.diagnostics);
      if (fm.hasHooks) files.push(file);
      if (kind === 'agent') {
        if (fm.name.includes(':') && ruleHolds('agent_name_colon_refused')) {
          diagnostics.push(
            claudeDiagnostic(
              'error',
              'claude_agent_name_invalid',
              `agent name ${q(fm.name)} contains ":"; Claude Code does not load this file`,
              file,
              { line: 1 },
              { source },
            ),
          );
          continue;
        }
        const twin = inThisTree.get(fm.name);
        if (twin !== undefined) {
          diagnostics.push(
            claudeDiagnostic(
              'warning',
              'claude_duplicate_agent_name',
              `agent ${q(fm.name)} is defined in ${displayPath(twin)} and ${displayPath(file)}; Claude Code loads only one of them`,
              file,
              { line: 1 },
              { source },
            ),
          );
        } else inThisTree.set(fm.name, file);
      }
      if (kind === 'skill') {
        const names = skillNames?.get(scope) ?? new Map<string, string>();
        if (!names.has(fm.name)) names.set(fm.name, file);
        skillNames?.set(scope, names);
      }
      const shadow = seen.get(fm.name) ?? (kind === 'command' ? skillNames?.get(scope)?.get(fm.name) : undefined);
      if (!seen.has(fm.name)) seen.set(fm.name, file);
      for (const raw of fm.handlers) {
        out.push({
          raw,
          from: {
            source,
            origin: `${kind}/${scope}/${fm.name}`,
            file,
            kind,
            ...(kind === 'agent' ? { agent: fm.name } : { skill: fm.name, skillSource: scope }),
          },
          settings: false,
          ...(shadow !== undefined ? { overridden: `shadowed by ${displayPath(shadow)}` } : {}),
        });
      }
    }
  }
  return out;
}

function numberActive(decls: Declaration[]): OrderedDeclaration[] {
  const next = new Map<string, number>();
  return decls.map((d) => {
    const o = d as OrderedDeclaration;
    if (d.status !== 'active') o.order = null;
    else {
      const n = (next.get(d.event) ?? 0) + 1;
      next.set(d.event, n);
      o.order = n;
    }
    return o;
  });
}

/** `*.json` files of a folder in name order, hidden ones left out. */
async function jsonFilesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.json') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The plugin roots of the --plugin-dir folders (claude.md §1): from 2.1.265 on, a folder without
 * `.claude-plugin/plugin.json` of which some child folders have one is a folder of plugins, and
 * those children, in name order, are the roots; before, every folder is a root.
 */
async function pluginRoots(dirs: readonly string[]): Promise<string[]> {
  if (!ruleHolds('plugin_dir_of_plugins')) return [...dirs];
  const hasManifest = (dir: string) => existsSync(join(dir, '.claude-plugin', 'plugin.json'));
  const roots: string[] = [];
  for (const dir of dirs) {
    if (hasManifest(dir)) {
      roots.push(dir);
      continue;
    }
    const children = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const plugins = children
      .filter((c) => (c.isDirectory() || c.isSymbolicLink()) && !c.name.startsWith('.'))
      .map((c) => c.name)
      .sort()
      .map((name) => join(dir, name))
      .filter(hasManifest);
    roots.push(...(plugins.length > 0 ? plugins : [dir]));
  }
  return roots;
}

/** From 2.1.257: the file is, or passes through, a symbolic link whose target is outside the root. */
async function linksOutOf(root: string, file: string): Promise<boolean> {
  if (!ruleHolds('plugin_symlink_escape')) return false;
  const [realRoot, real] = await Promise.all([realpath(root).catch(() => root), realpath(file).catch(() => undefined)]);
  return real !== undefined && !isInside(realRoot, real);
}

/** A --plugin-dir that is not a folder is a usage error (exit 2). */
async function requirePluginDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const isDir = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) throw new HookctlError('usage_error', `--plugin-dir ${dir}: no such folder`, ExitCode.usage);
  }
}

export type { ClaudeLocations };
