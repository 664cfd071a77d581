// Every codex source (codex.md §1) read into declarations in dispatch order, with the gates and
// statuses of §2.3, the trust view of §2.6 and every diagnostic of §2.2, plus the context
// dispatch and edits read (CodexContext).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { DeclarationStatus, OrderedDeclaration } from '../../../declarations/model.js';
import { readSourceFile, type Position } from '../../../declarations/source-file.js';
import { HookctlError, ExitCode } from '../../../errors.js';
import type { Locations } from '../../../paths.js';
import { codexLocations, codexUserConfig, type CodexLocations } from '../locations.js';
import type {
  CodexContext,
  CodexFileKind,
  CodexHandlerInfo,
  CodexPluginRef,
  CodexSource,
  CodexTrust,
} from '../model.js';
import { codexDiagnostic, isTable, positionOf, type CheckedDocument, type RawCodexHandler } from '../rules/check.js';
import { codexHookHash, TomlFloat, type HashValue } from '../rules/hash.js';
import { codexKey, codexLabel, dataDirName, q } from '../rules/names.js';
import { checkHooksFileNode, readHooksJsonText, type DocumentMeta } from './json-file.js';
import { installedPlugins, pluginCacheDir, readPluginManifest } from './plugins.js';
import { projectFolders, projectLayerDirs } from './presence.js';
import {
  checkTomlHooks,
  parseTomlText,
  readEnabledPlugins,
  readFeature,
  readHookStates,
  readProjectTrust,
  stateIgnored,
  type FeatureSetting,
  type HookState,
  type TomlDocument,
} from './toml-file.js';

export interface CodexCatalog {
  declarations: OrderedDeclaration[];
  diagnostics: Diagnostic[];
  files: string[];
  context: CodexContext;
}

/** One hooks document Codex reads, with what decides the status of its hooks. */
interface HookDoc {
  source: CodexSource;
  origin: string;
  file: string;
  fileKind: CodexFileKind;
  keySource: string;
  managed: boolean;
  checked: CheckedDocument;
  /** TOML values carry bigint integers and floats (hashing keeps Codex's float spelling). */
  toml: boolean;
  plugin?: CodexPluginRef;
  blocked?: string;
  disabled?: string;
}

export function emptyContext(cl: CodexLocations, projectRoot: string): CodexContext {
  return {
    codexHome: cl.codexHome,
    systemDir: cl.systemDir,
    workspace: cl.workspace,
    projectRoot,
    userConfig: codexUserConfig(cl),
    stateDir: cl.stateDir,
    pluginDirs: cl.pluginDirs,
  };
}

export async function loadCodexSources(
  loc: Pick<Locations, 'workspace' | 'stateDir'> & Partial<Pick<Locations, 'pluginDirs'>>,
  env: NodeJS.ProcessEnv,
): Promise<CodexCatalog> {
  const cl = codexLocations(loc, env);
  requirePluginDirs(cl.pluginDirs);
  const { root: projectRoot, dirs } = projectFolders(cl.workspace);
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  const docs: HookDoc[] = [];
  const userConfig = codexUserConfig(cl);

  /** Reads a TOML file: undefined when missing or broken (its diagnostic is kept). */
  const readToml = async (file: string, source: CodexSource): Promise<TomlDocument | undefined> => {
    const read = await readSourceFile(file, source);
    if (read.kind === 'missing') return undefined;
    files.push(file);
    if (read.kind === 'bad') {
      diagnostics.push(read.diagnostic);
      return undefined;
    }
    const parsed = parseTomlText(read.text, file, source);
    if (!parsed.ok) {
      diagnostics.push(parsed.diagnostic);
      return undefined;
    }
    return parsed.doc;
  };
  const readJsonHooks = async (meta: DocumentMeta, quiet = false): Promise<CheckedDocument | undefined> => {
    const read = await readSourceFile(meta.file, meta.source, { json: true });
    if (read.kind === 'missing') return undefined;
    files.push(meta.file);
    if (read.kind === 'bad') {
      if (!quiet) diagnostics.push(read.diagnostic);
      return undefined;
    }
    const parsed = readHooksJsonText(read.text, meta);
    if (!parsed.ok) {
      if (!quiet) diagnostics.push(parsed.diagnostic);
      return undefined;
    }
    return parsed.checked;
  };
  const features: FeatureEntry[] = [];
  const noteFeature = (doc: TomlDocument, file: string, source: CodexSource, requirements = false) => {
    const f = readFeature(doc, file, source);
    diagnostics.push(...f.diagnostics);
    if (f.setting !== undefined) features.push({ setting: f.setting, requirements, source });
  };

  // ---- the user config.toml: trust, hook state, projects, plugins ----
  const userDoc = await readToml(userConfig, 'codex_user');
  let states = new Map<string, HookState>();
  if (userDoc !== undefined) {
    const s = readHookStates(userDoc, userConfig, 'codex_user');
    states = s.states;
    diagnostics.push(...s.diagnostics);
  }

  // ---- managed: requirements.toml ----
  let managedOnly: string | undefined;
  const requirements = join(cl.systemDir, 'requirements.toml');
  const reqDoc = await readToml(requirements, 'codex_managed');
  if (reqDoc !== undefined) {
    noteFeature(reqDoc, requirements, 'codex_managed', true);
    const ignored = stateIgnored(reqDoc, requirements, 'codex_managed');
    if (ignored !== undefined) diagnostics.push(ignored);
    if (reqDoc.data.allow_managed_hooks_only === true) managedOnly = requirements;
    const hooks = reqDoc.data.hooks;
    const managedDir = isTable(hooks) && typeof hooks.managed_dir === 'string' ? hooks.managed_dir : undefined;
    const meta: DocumentMeta = {
      file: requirements,
      fileKind: 'requirements_toml',
      origin: 'managed/requirements.toml',
      source: 'codex_managed',
    };
    docs.push({
      ...meta,
      keySource: managedDir !== undefined && isAbsolute(managedDir) ? managedDir : requirements,
      managed: true,
      checked: checkTomlHooks(reqDoc, meta),
      toml: true,
    });
  }

  /** A config layer: hooks.json then config.toml of one folder. */
  const layer = async (
    dir: string,
    source: CodexSource,
    originPrefix: string,
    opts: { managed: boolean; user?: boolean; blocked?: string; countsForFeatures: boolean; keyDir?: string },
  ) => {
    const jsonFile = join(dir, 'hooks.json');
    const tomlFile = join(dir, 'config.toml');
    const keyDir = opts.keyDir ?? dir;
    const jsonMeta: DocumentMeta = {
      file: jsonFile,
      fileKind: 'hooks_json',
      origin: `${originPrefix}hooks.json`,
      source,
    };
    const json = await readJsonHooks(jsonMeta);
    const tomlDoc = opts.user === true ? userDoc : await readToml(tomlFile, source);
    const layerDocs: HookDoc[] = [];
    const base = { source, managed: opts.managed, ...(opts.blocked !== undefined ? { blocked: opts.blocked } : {}) };
    if (json !== undefined)
      layerDocs.push({ ...base, ...jsonMeta, keySource: join(keyDir, 'hooks.json'), checked: json, toml: false });
    if (tomlDoc !== undefined) {
      const meta: DocumentMeta = {
        file: tomlFile,
        fileKind: 'config_toml',
        origin: `${originPrefix}config.toml`,
        source,
      };
      if (opts.user !== true) {
        const ignored = stateIgnored(tomlDoc, tomlFile, source);
        if (ignored !== undefined) diagnostics.push(ignored);
      }
      if (opts.countsForFeatures) noteFeature(tomlDoc, tomlFile, source);
      const checked = checkTomlHooks(tomlDoc, meta);
      layerDocs.push({ ...base, ...meta, keySource: join(keyDir, 'config.toml'), checked, toml: true });
      if (json?.declaresHooks === true && checked.declaresHooks) {
        diagnostics.push(
          codexDiagnostic(
            'warning',
            'codex_both_representations',
            `loading hooks from both ${jsonFile} and ${tomlFile}; prefer a single representation for this layer`,
            tomlFile,
            positionOf(tomlDoc.locate, ['hooks']),
            { source },
          ),
        );
      }
    }
    docs.push(...layerDocs);
    return layerDocs;
  };

  await layer(cl.systemDir, 'codex_system', 'system/', { managed: true, countsForFeatures: true });
  // Codex canonicalizes a CODEX_HOME given in the environment (not the default ~/.codex) before
  // it lands in keys: a symlinked CODEX_HOME keys by its real path.
  const userKeyDir = env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? realOrSelf(cl.codexHome) : cl.codexHome;
  await layer(cl.codexHome, 'codex_user', 'user/', {
    managed: false,
    user: true,
    countsForFeatures: true,
    keyDir: userKeyDir,
  });

  // ---- project layers, root first, each by its own trust (§1) ----
  const trust = readProjectTrust(userDoc);
  const untrustedRoots = new Set<string>();
  for (const dir of projectLayerDirs(cl, dirs)) {
    const rel = relative(projectRoot, dir).split(sep).join('/');
    const decision = projectTrust(trust, dir, projectRoot);
    const blocked = decision.trusted
      ? undefined
      : `project ${q(decision.path)} is not trusted (projects.${q(decision.path)}.trust_level in ${userConfig})`;
    const got = await layer(join(dir, '.codex'), 'codex_project', `project/${rel === '' ? '' : `${rel}/`}.codex/`, {
      managed: false,
      ...(blocked !== undefined ? { blocked } : {}),
      countsForFeatures: decision.trusted,
    });
    if (blocked !== undefined && got.length > 0 && !untrustedRoots.has(decision.path)) {
      untrustedRoots.add(decision.path);
      diagnostics.push(
        codexDiagnostic(
          'warning',
          'codex_project_untrusted',
          `project ${q(decision.path)} is not trusted; Codex does not load its .codex/ layers`,
          got[0]!.file,
          { line: 1 },
          { source: 'codex_project' },
        ),
      );
    }
  }

  // ---- plugins: --plugin-dir in flag order, then installed ones in id order ----
  const pluginSources = async (
    root: string,
    id: string | undefined,
    dataDir: (name: string) => string,
    disabled?: (id: string) => string | undefined,
  ) => {
    const manifest = await readPluginManifest(root);
    if (manifest === undefined) return false;
    files.push(...manifest.files);
    const pluginId = id ?? manifest.name;
    const plugin: CodexPluginRef = { id: pluginId, root, dataDir: dataDir(manifest.name) };
    const off = disabled?.(pluginId);
    // A plugin that is not enabled contributes nothing: its hooks say so, its problems are not
    // reported (they would make fire refuse over files Codex never reads), as for claude plugins.
    if (off === undefined) diagnostics.push(...manifest.diagnostics);
    for (const src of manifest.sources) {
      const meta: DocumentMeta = {
        file: src.file,
        fileKind: src.kind === 'file' ? 'hooks_json' : 'plugin_inline',
        origin: `plugin/${pluginId}/${src.rel}`,
        source: 'codex_plugin',
      };
      const checked =
        src.kind === 'file'
          ? await readJsonHooks(meta, off !== undefined)
          : checkHooksFileNode(src.node, src.base, src.locate, meta);
      if (checked === undefined) continue;
      docs.push({
        ...meta,
        keySource: `${pluginId}:${src.rel}`,
        managed: false,
        checked,
        toml: false,
        plugin,
        ...(off !== undefined ? { disabled: off } : {}),
      });
    }
    return true;
  };
  for (const dir of cl.pluginDirs) {
    await pluginSources(resolve(dir), undefined, (name) => join(cl.codexHome, 'plugins', 'data', dataDirName(name)));
  }
  const installed = installedPlugins(cl.codexHome);
  const enabled = new Set(readEnabledPlugins(userDoc));
  for (const p of installed) {
    const read = await pluginSources(
      p.root,
      p.id,
      () => p.dataDir,
      (id) => (enabled.has(id) ? undefined : `plugin ${q(id)} is not enabled`),
    );
    // [ours] An enabled copy without .codex-plugin/plugin.json contributes no hook here: say so
    // rather than list nothing (Codex falls back to .claude-plugin/plugin.json, which hookctl
    // does not read for codex, codex.md §9).
    if (!read && enabled.has(p.id)) {
      const claude = existsSync(join(p.root, '.claude-plugin', 'plugin.json'));
      diagnostics.push(
        codexDiagnostic(
          'warning',
          'codex_plugin_not_installed',
          `plugin ${q(p.id)} is enabled but its copy ${p.root} has no .codex-plugin/plugin.json; ${
            claude
              ? 'Codex falls back to its .claude-plugin/plugin.json, which hookctl does not read, so its hooks are not shown'
              : 'Codex does not load it'
          }`,
          userConfig,
          userDoc !== undefined ? positionOf(userDoc.locate, ['plugins', p.id]) : { line: 1 },
          { source: 'codex_user' },
        ),
      );
    }
  }
  for (const id of enabled) {
    if (installed.some((p) => p.id === id)) continue;
    diagnostics.push(
      codexDiagnostic(
        'warning',
        'codex_plugin_not_installed',
        `plugin ${q(id)} is enabled but no copy is installed under ${pluginCacheDir(cl.codexHome)}`,
        userConfig,
        userDoc !== undefined ? positionOf(userDoc.locate, ['plugins', id]) : { line: 1 },
        { source: 'codex_user' },
      ),
    );
  }

  // ---- gates (§2.3) ----
  const off = hooksTurnedOff(features);
  if (off !== undefined) {
    diagnostics.push(
      codexDiagnostic('warning', 'codex_hooks_disabled', off.why, off.file, off.at, { source: off.source }),
    );
  }

  // ---- declarations ----
  const declarations: OrderedDeclaration[] = [];
  const next = new Map<string, number>();
  for (const doc of docs) {
    if (doc.disabled === undefined) diagnostics.push(...doc.checked.diagnostics);
    for (const raw of doc.checked.handlers) {
      const d = declare(raw, doc, {
        states,
        userConfig,
        workspace: cl.workspace,
        featureOff: off?.why,
        managedOnly: managedOnly === undefined ? undefined : `allow_managed_hooks_only is true in ${managedOnly}`,
      });
      if (d.status === 'active') {
        const n = (next.get(d.event) ?? 0) + 1;
        next.set(d.event, n);
        d.order = n;
        const x = d.extra as unknown as CodexHandlerInfo;
        const trustNote = trustDiagnostic(x, d.name!, doc.file, raw.at, doc.source);
        if (trustNote !== undefined) diagnostics.push(trustNote);
      }
      declarations.push(d);
    }
  }
  return { declarations, diagnostics, files, context: emptyContext(cl, projectRoot) };
}

interface DeclareContext {
  states: Map<string, HookState>;
  userConfig: string;
  workspace: string;
  featureOff: string | undefined;
  managedOnly: string | undefined;
}

/** A checked handler's hashed identity and hash (§2.6); `toml`: its numbers are TOML's (floats kept). */
export function rawHandlerHash(raw: RawCodexHandler, toml: boolean): { hash_input: string; current_hash: string } {
  const h = raw.handler;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return codexHookHash(raw.eventData, raw.groupMatcher, {
    type: raw.type === 'mcp_tool' ? 'mcp_tool' : 'command',
    command: str(h.command),
    timeout: raw.timeout_s,
    async: raw.asyncWritten,
    statusMessage: raw.statusMessage,
    additionalContextLimit: raw.contextLimit,
    server: str(h.server),
    tool: str(h.tool),
    input: isTable(h.input) ? hashValue(h.input, toml) : {},
  });
}

function declare(raw: RawCodexHandler, doc: HookDoc, ctx: DeclareContext): OrderedDeclaration {
  const h = raw.handler;
  const type = raw.type ?? 'command';
  const key = codexKey(doc.keySource, raw.eventData.label, raw.groupIndex, raw.handlerIndex);
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const { hash_input, current_hash } = rawHandlerHash(raw, doc.toml);
  const state = doc.managed ? undefined : ctx.states.get(key);
  const trusted_hash = doc.managed ? null : (state?.trusted_hash ?? null);
  const trust: CodexTrust = doc.managed
    ? 'managed'
    : trusted_hash === null
      ? 'untrusted'
      : trusted_hash === current_hash
        ? 'trusted'
        : 'modified';

  // The gates of §2.3, the first row that applies winning.
  const gate: [DeclarationStatus, string] | undefined =
    ctx.featureOff !== undefined
      ? ['disabled', ctx.featureOff]
      : ctx.managedOnly !== undefined && !doc.managed
        ? ['blocked', ctx.managedOnly]
        : doc.blocked !== undefined
          ? ['blocked', doc.blocked]
          : doc.disabled !== undefined
            ? ['disabled', doc.disabled]
            : state?.enabled === false
              ? ['disabled', `disabled by hooks.state.${q(key)} in ${ctx.userConfig}`]
              : undefined;
  let status: DeclarationStatus = 'active';
  let why: string | undefined;
  let declDiagnostics: Diagnostic[] | undefined;
  // A handler with errors is invalid, shown with them (SPEC §7.2), except in a plugin that is not
  // enabled: Codex never reads it, and its problems are not reported.
  if (doc.disabled === undefined && (doc.checked.rejected !== undefined || raw.errors.length > 0)) {
    status = 'invalid';
    declDiagnostics = [...(doc.checked.rejected !== undefined ? [doc.checked.rejected] : []), ...raw.errors];
    // Every diagnostic naming this hook (its own type errors too).
    for (const d of doc.checked.diagnostics)
      if (d.severity === 'error' && d.hook === raw.name && !declDiagnostics.includes(d)) declDiagnostics.push(d);
    why = declDiagnostics[0]!.message;
  } else if (gate !== undefined) [status, why] = gate;

  const command = type === 'command' ? str(h.command) : type === 'mcp_tool' ? `${str(h.server)}/${str(h.tool)}` : '';
  const env: Record<string, string> = {};
  let expanded = command;
  if (doc.plugin !== undefined) {
    env.PLUGIN_ROOT = env.CLAUDE_PLUGIN_ROOT = doc.plugin.root;
    env.PLUGIN_DATA = env.CLAUDE_PLUGIN_DATA = doc.plugin.dataDir;
    if (type === 'command') expanded = substitutePluginVars(command, doc.plugin);
  }
  const isAsync = type === 'command' && raw.asyncWritten && raw.eventData.async;
  const runnable = type === 'command' && raw.errors.length === 0 && doc.checked.rejected === undefined;
  const extra: CodexHandlerInfo = {
    origin: doc.origin,
    file_kind: doc.fileKind,
    handler: plain(h) as Record<string, unknown>,
    handler_type: type,
    group_matcher: raw.groupMatcher,
    group_index: raw.groupIndex,
    handler_index: raw.handlerIndex,
    key,
    hash_input,
    current_hash,
    trusted_hash,
    trust,
    timeout_s: raw.timeout_s,
    async: isAsync,
    status_message: raw.statusMessage,
    context_limit: raw.contextLimit === null ? null : Number(raw.contextLimit),
    runnable,
    label: codexLabel(type, h),
  };
  if (type === 'mcp_tool') extra.unrunnable_why = 'mcp_tool hooks run only inside Codex';
  else if (!runnable && status === 'invalid') extra.unrunnable_why = why ?? 'Codex skips this hook';
  // An active hook that will not run as it stands says so as its why (list --all, info, the dry
  // run), as claude's hooks that load but never fire do: trust first (Codex skips it), then a
  // handler only Codex can run.
  if (status === 'active')
    why = trustMessage(extra) ?? (type === 'mcp_tool' ? `${extra.unrunnable_why}; hooks fire skips it` : undefined);
  if (doc.plugin !== undefined) extra.plugin = doc.plugin;

  const field = raw.eventData.matcher_field;
  const m = raw.groupMatcher;
  return {
    dialect: 'codex',
    name: raw.name,
    event: raw.event,
    source: doc.source,
    mode: isAsync ? 'async' : 'sync',
    required: false,
    priority: null,
    timeout_ms: raw.timeout_s * 1000,
    enabled: status !== 'disabled',
    metadata: {},
    matcher: field !== null && m !== null && m !== '' && m !== '*' ? { [field]: m } : {},
    executor_kind: type,
    command: expanded,
    args: [],
    env,
    secret_env: {},
    cwd: ctx.workspace,
    location: { file: doc.file, line: raw.at.line, ...(raw.at.column !== undefined ? { column: raw.at.column } : {}) },
    status,
    ...(why !== undefined ? { why } : {}),
    ...(declDiagnostics !== undefined ? { diagnostics: declDiagnostics } : {}),
    extra: extra as unknown as Record<string, unknown>,
    order: null,
  };
}

const PLUGIN_VARS = /\$\{(CLAUDE_PLUGIN_ROOT|PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|PLUGIN_DATA)\}/g;

/** `${PLUGIN_ROOT}`-style references replaced as text (§1), after hashing. */
export function substitutePluginVars(command: string, plugin: Pick<CodexPluginRef, 'root' | 'dataDir'>): string {
  return command.replace(PLUGIN_VARS, (_, name: string) => (name.endsWith('ROOT') ? plugin.root : plugin.dataDir));
}

/** Why Codex skips a hook it has not trusted (codex_untrusted, codex_modified); undefined when it runs it. */
export function trustMessage(x: Pick<CodexHandlerInfo, 'trust' | 'trusted_hash' | 'current_hash'>): string | undefined {
  if (x.trust === 'untrusted')
    return `hook is not trusted; Codex skips it until it is trusted (current hash ${x.current_hash})`;
  if (x.trust === 'modified')
    return `hook changed since it was trusted; Codex skips it (trusted ${x.trusted_hash}, current ${x.current_hash})`;
  return undefined;
}

function trustDiagnostic(
  x: CodexHandlerInfo,
  name: string,
  file: string,
  at: Position,
  source: string,
): Diagnostic | undefined {
  const message = trustMessage(x);
  if (message === undefined) return undefined;
  const code = x.trust === 'untrusted' ? 'codex_untrusted' : 'codex_modified';
  return codexDiagnostic('warning', code, message, file, at, { source, hook: name });
}

/**
 * `[features] hooks` (§2.3): `false` in requirements.toml wins; else the highest config layer
 * that sets the key (the features list is in layer order, lowest first).
 */
interface FeatureEntry {
  setting: FeatureSetting;
  requirements: boolean;
  source: CodexSource;
}

function hooksTurnedOff(
  features: readonly FeatureEntry[],
): { why: string; file: string; at: Position; source: string } | undefined {
  const make = (f: FeatureEntry) => ({
    why: `hooks are turned off: [features] ${f.setting.key} = false in ${f.setting.file}`,
    file: f.setting.file,
    at: f.setting.at,
    source: f.source,
  });
  const req = features.find((f) => f.requirements && !f.setting.value);
  if (req !== undefined) return make(req);
  const highest = features.filter((f) => !f.requirements).at(-1);
  if (highest !== undefined && !highest.setting.value) return make(highest);
  return undefined;
}

/** The trust entry that decides a project layer's folder: its own, then the project root's. */
export function projectTrust(
  entries: ReadonlyMap<string, string>,
  dir: string,
  root: string,
): { trusted: boolean; path: string } {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const strip = (p: string) => (p.length > 1 ? p.replace(/[\\/]+$/, '') : p);
  const lookup = (target: string): string | undefined => {
    const names = new Set([strip(target), real(target)]);
    for (const [path, level] of entries) {
      if (!isAbsolute(path)) continue;
      if (names.has(strip(path)) || names.has(real(path))) return level;
    }
    return undefined;
  };
  for (const path of dir === root ? [dir] : [dir, root]) {
    const level = lookup(path);
    if (level !== undefined) return { trusted: level === 'trusted', path };
  }
  return { trusted: false, path: root };
}

/** TOML values for hashing: integers stay integers (bigint), floats keep their fraction. */
function hashValue(v: unknown, toml: boolean): HashValue {
  if (v instanceof TomlFloat) return v;
  if (typeof v === 'number') return toml ? new TomlFloat(v) : v;
  if (typeof v === 'bigint' || typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => hashValue(x, toml));
  if (isTable(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hashValue(x, toml)]));
  return String(v);
}

/** A JSON-safe copy of a value as written (TOML integers as numbers, dates as text). */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof TomlFloat) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (isTable(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  if (typeof v === 'object' && v !== null) return String(v);
  return v;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A --plugin-dir that is not a folder is a usage error (exit 2). */
function requirePluginDirs(dirs: readonly string[]): void {
  for (const dir of dirs) {
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new HookctlError('usage_error', `--plugin-dir ${dir}: no such folder`, ExitCode.usage);
  }
}
