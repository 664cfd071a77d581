// Every cosh declaration source (SPEC §1, §4.2–4.4) resolved into Declarations in cosh dispatch
// order: config hooks (layer rules applied), then extension hooks by extension name, group
// order, hook order. Hooks that do not run are kept with a status and why, for `list --all`.
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { coshEvents } from './events.js';
import { coshConfigLayers, coshExtensionDirs, coshStatesFile, type Locations } from '../../paths.js';
import type { Diagnostic } from '../../declarations/diagnostics.js';
import type { Declaration, DeclarationStatus, OrderedDeclaration } from '../../declarations/model.js';
import type { DialectCatalog } from '../types.js';
import type { CoshSource } from './model.js';
import { parseCoshConfig, readCoshConfig, type CoshConfigLayer } from './config.js';
import {
  COSH_EXTENSION_MANIFEST,
  parseCoshExtension,
  readCoshExtension,
  type CoshExtensionManifest,
} from './extension.js';
import { diagnostic, isCoshEventName, type CoshHookSpec } from './hook.js';
import { coshExtensionStatesFile, readCoshStates } from './states.js';
import { readSourceFile } from '../../declarations/source-file.js';
import { compareCodePoints } from '../../declarations/code-points.js';
import {
  firstShellWord,
  resolveScriptWord,
  scriptProblem,
  scriptProblemText,
} from '../../declarations/command-script.js';

export interface CoshSources {
  /** Every cosh declaration, every status, in dispatch order. */
  declarations: Declaration[];
  diagnostics: Diagnostic[];
  /** Declaration files that were read. */
  files: string[];
}

export type CoshFileKind = 'cosh_config' | 'cosh_extension';

/** Why a hook does not run: its status for `hooks list --all` and the reason shown. */
export interface Verdict {
  status: Exclude<DeclarationStatus, 'active' | 'blocked'>;
  why: string;
}

// `env` is part of every loader's signature; cosh declarations read nothing from it.
export async function loadCoshSources(loc: Locations, env: NodeJS.ProcessEnv): Promise<CoshSources> {
  const [layers, manifests, hookStates, extensionStates] = await Promise.all([
    Promise.all(coshConfigLayers(loc).map((f) => readCoshConfig(f))),
    discoverCoshExtensions(loc),
    readCoshStates(coshStatesFile(loc)),
    readCoshStates(coshExtensionStatesFile(loc)),
  ]);
  const present = layers.filter((l): l is CoshConfigLayer => l !== undefined);
  const disabledHooks = new Set(hookStates.disabled);
  const hookDisabled = (name: string | null): Verdict | undefined =>
    name !== null && disabledHooks.has(name)
      ? { status: 'disabled', why: `disabled in ${hookStates.file}` }
      : undefined;

  const config = resolveConfigLayers(present, loc, hookDisabled);
  const extensions = resolveExtensions(
    manifests,
    loc,
    new Set(extensionStates.disabled),
    extensionStates.file,
    hookDisabled,
  );
  const declarations = [...config.declarations, ...extensions.declarations];
  return {
    declarations,
    diagnostics: [
      ...config.diagnostics,
      ...extensions.diagnostics,
      ...scriptNotices(declarations, env.HOME),
      ...hookStates.diagnostics,
      ...extensionStates.diagnostics,
    ],
    files: [...present.map((l) => l.file), ...manifests.map((m) => m.file)],
  };
}

/**
 * Layers are lowest first. Per event, the highest layer that declares it owns the event's list;
 * the lower layers' hooks of that event show as overridden. `[hooks] enabled`: the highest layer
 * that sets it wins (default true); false disables the config hooks of every layer.
 */
function resolveConfigLayers(
  layers: CoshConfigLayer[],
  loc: Locations,
  hookDisabled: (name: string | null) => Verdict | undefined = () => undefined,
): { declarations: Declaration[]; diagnostics: Diagnostic[] } {
  const owner = new Map<string, CoshConfigLayer>();
  for (const layer of layers) for (const event of layer.events.keys()) owner.set(event, layer);
  const enabledBy = [...layers].reverse().find((l) => l.enabled !== undefined);
  const diagnostics = layers.flatMap((l) => l.diagnostics);
  if (enabledBy?.enabled?.value === false) diagnostics.push(hooksDisabledWarning(enabledBy));

  const declarations: Declaration[] = [];
  for (const layer of layers) {
    for (const [event, specs] of layer.events) {
      const winner = owner.get(event)!;
      for (const spec of specs) {
        const verdict =
          nameless(spec) ??
          (winner !== layer
            ? { status: 'overridden' as const, why: `hooks.${event} is replaced by ${winner.file}` }
            : undefined) ??
          (enabledBy?.enabled?.value === false
            ? { status: 'disabled' as const, why: `[hooks] enabled = false in ${enabledBy.file}` }
            : undefined) ??
          hookDisabled(spec.name);
        declarations.push(toDeclaration(spec, 'cosh_config', loc, verdict));
      }
    }
  }
  return { declarations, diagnostics };
}

/**
 * Extensions are known by manifest name; the first found in the order user, /usr/local/share,
 * /usr/share wins and the others are overridden. Extensions run in name order.
 */
function resolveExtensions(
  manifests: CoshExtensionManifest[],
  loc: Locations,
  disabledExtensions: ReadonlySet<string> = new Set(),
  extensionStatesFile = '',
  hookDisabled: (name: string | null) => Verdict | undefined = () => undefined,
): { declarations: Declaration[]; diagnostics: Diagnostic[] } {
  const winners = new Map<string, CoshExtensionManifest>();
  for (const m of manifests) if (m.name !== undefined && !winners.has(m.name)) winners.set(m.name, m);
  const named = manifests
    .map((m, found) => ({ m, found }))
    .filter(({ m }) => m.name !== undefined)
    .sort((a, b) => compareCodePoints(a.m.name!, b.m.name!) || a.found - b.found);

  const declarations: Declaration[] = [];
  for (const { m } of named) {
    const name = m.name!;
    const winner = winners.get(name)!;
    for (const spec of m.hooks) {
      const verdict =
        nameless(spec) ??
        (winner !== m
          ? { status: 'overridden' as const, why: `extension "${name}" is overridden by ${winner.file}` }
          : undefined) ??
        (disabledExtensions.has(name)
          ? { status: 'disabled' as const, why: `extension "${name}" is disabled in ${extensionStatesFile}` }
          : undefined) ??
        hookDisabled(spec.name);
      declarations.push(toDeclaration(spec, 'cosh_extension', loc, verdict, m));
    }
  }
  return { declarations, diagnostics: manifests.flatMap((m) => m.diagnostics) };
}

/** Every `<root>/<dir>/cosh-extension.json`, roots in precedence order, dirs by name. */
async function discoverCoshExtensions(loc: Locations): Promise<CoshExtensionManifest[]> {
  const perRoot = await Promise.all(
    coshExtensionDirs(loc).map(async (root) => {
      const dirs = await listDirs(root);
      const manifests = await Promise.all(
        dirs.map((d) => readCoshExtension(join(root, d, COSH_EXTENSION_MANIFEST), loc.workspace)),
      );
      return manifests.filter((m): m is CoshExtensionManifest => m !== undefined);
    }),
  );
  return perRoot.flat();
}

async function listDirs(root: string): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return []; // a missing extension folder is simply empty
  }
  const dirs: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) dirs.push(e.name);
    else if (e.isSymbolicLink()) {
      const s = statSync(join(root, e.name), { throwIfNoEntry: false });
      if (s?.isDirectory()) dirs.push(e.name);
    }
  }
  return dirs.sort(compareCodePoints);
}

function nameless(spec: CoshHookSpec): Verdict | undefined {
  // A hook with errors says so first: that is why it never runs (SPEC §7.2).
  if (spec.invalid) return { status: 'invalid', why: spec.invalid[0]?.message ?? 'invalid hook' };
  return spec.name === null ? { status: 'skipped', why: 'hook has no name' } : undefined;
}

function hooksDisabledWarning(layer: CoshConfigLayer): Diagnostic {
  return {
    severity: 'warning',
    code: 'hooks_disabled',
    message: '[hooks] enabled = false: the config hooks of every layer are dropped (extension hooks still run)',
    file: layer.file,
    line: layer.enabled!.line,
    source: 'cosh_config',
  };
}

function toDeclaration(
  spec: CoshHookSpec,
  source: CoshSource,
  loc: Locations,
  verdict: Verdict | undefined,
  extension?: CoshExtensionManifest,
): Declaration {
  const d: Declaration = {
    dialect: 'cosh',
    name: spec.name,
    event: spec.event,
    source,
    // cosh awaits every hook in order: there is no async mode and no `required`.
    mode: 'sync',
    required: false,
    // cosh has no priorities: order is config, then extensions by name, then file order.
    // Every cosh declaration carries 0 so sorting by priority never reorders them.
    priority: 0,
    timeout_ms: spec.timeout_ms,
    enabled: verdict?.status !== 'disabled',
    metadata: extension ? { extension: extension.name!, extension_version: extension.version } : {},
    matcher: spec.matcher !== undefined ? { tool_name: spec.matcher } : {},
    executor_kind: 'subprocess',
    // Run as `sh -c <command>` at dispatch; kept as declared (after `${...}` expansion).
    command: spec.command,
    args: [],
    env: spec.env,
    secret_env: {},
    cwd: loc.workspace,
    location: { file: spec.file, line: spec.line },
    status: verdict?.status ?? 'active',
  };
  if (verdict) d.why = verdict.why;
  if (extension) d.extension = extension.name!;
  if (spec.description !== undefined) d.description = spec.description;
  if (spec.invalid) d.diagnostics = spec.invalid;
  return d;
}

// ---------------------------------------------------------------------------------------------
// `hooks validate FILE`

const COSH_EVENT_KEY = new RegExp(
  `"(?:${coshEvents()
    .map((e) => e.name)
    .join('|')})"\\s*:`,
);

/**
 * Which cosh file this is, told by name and content; undefined when it is not a cosh file. A
 * cosh config.toml has `[[hooks.<Event>]]` or `[hooks] enabled`; a CompozyOS one has
 * `[[hooks.declarations]]`.
 */
export function detectCoshFileKind(path: string, text: string): CoshFileKind | undefined {
  const name = basename(path);
  if (name === COSH_EXTENSION_MANIFEST) return 'cosh_extension';
  if (extname(name).toLowerCase() === '.json') {
    return COSH_EVENT_KEY.test(text) && !/"resources"\s*:/.test(text) ? 'cosh_extension' : undefined;
  }
  return looksLikeCoshToml(text) ? 'cosh_config' : undefined;
}

const TOML_HEADER = /^\s*\[/;
const HOOKS_TABLE = /^\s*\[\s*hooks\s*\]\s*(#.*)?$/;
const HOOKS_ARRAY = /^\s*\[\[\s*hooks\s*\.\s*["']?([A-Za-z0-9_-]+)["']?\s*\]\]/;
const HOOKS_DOTTED = /^\s*hooks\s*\.\s*["']?([A-Za-z0-9_-]+)["']?\s*=/;
const KEY = /^\s*["']?([A-Za-z0-9_-]+)["']?\s*=/;

/** `[[hooks.<Event>]]`, `[hooks]` with `enabled` or an event list, or `hooks.<key> = ...`; never `hooks.declarations`. */
function looksLikeCoshToml(text: string): boolean {
  let cosh = false;
  let inHooksTable = false;
  for (const line of text.split('\n')) {
    const array = HOOKS_ARRAY.exec(line) ?? HOOKS_DOTTED.exec(line);
    if (array) {
      if (array[1] === 'declarations') return false;
      cosh = true;
    }
    if (TOML_HEADER.test(line)) {
      inHooksTable = HOOKS_TABLE.test(line);
      continue;
    }
    const key = inHooksTable ? KEY.exec(line) : null;
    if (key) {
      if (key[1] === 'declarations') return false;
      if (key[1] === 'enabled' || isCoshEventName(key[1]!)) cosh = true;
    }
  }
  return cosh;
}

export interface CoshFileValidation {
  kind: CoshFileKind;
  declarations: Declaration[];
  diagnostics: Diagnostic[];
}

/**
 * One file on its own, as `hooks validate FILE` sees it: its own rules only (no other layer, no
 * states file). The kind is told by detectCoshFileKind, else by extension (.json = manifest).
 */
export async function validateCoshFile(
  file: string,
  loc: Locations,
  _env: NodeJS.ProcessEnv,
): Promise<CoshFileValidation> {
  const path = resolve(file);
  const guess: CoshFileKind = extname(path).toLowerCase() === '.json' ? 'cosh_extension' : 'cosh_config';
  const read = await readSourceFile(path, guess);
  if (read.kind !== 'text') {
    const diagnostic: Diagnostic =
      read.kind === 'bad'
        ? read.diagnostic
        : { severity: 'error', code: 'file_not_found', message: 'file not found', file: path, line: 1, source: guess };
    return { kind: guess, declarations: [], diagnostics: [diagnostic] };
  }
  const kind = detectCoshFileKind(path, read.text) ?? guess;
  if (kind === 'cosh_extension') {
    const manifest = parseCoshExtension(path, read.text, loc.workspace);
    const resolved = resolveExtensions(manifest.name === undefined ? [] : [manifest], loc);
    const notices = scriptNotices(resolved.declarations, _env.HOME);
    return { kind, declarations: resolved.declarations, diagnostics: [...manifest.diagnostics, ...notices] };
  }
  const resolved = resolveConfigLayers([parseCoshConfig(path, read.text)], loc);
  const notices = scriptNotices(resolved.declarations, _env.HOME);
  return { kind, declarations: resolved.declarations, diagnostics: [...resolved.diagnostics, ...notices] };
}

/**
 * command_not_found for each active hook whose script cannot run: the first word of its
 * `sh -c` command when it is a path (a bare name is a PATH lookup, not checked), with only
 * `$HOME` and a leading `~` expanded, resolved against the workspace cosh runs hooks in. The
 * declaration carries it (`why`), so list --all, info and fire --dry-run say so.
 */
function scriptNotices(declarations: Declaration[], home: string | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of declarations) {
    if (d.status !== 'active') continue;
    const vars: Record<string, string> = home ? { HOME: home } : {};
    const facts = { cwd: d.cwd, ...(home ? { home } : {}), vars };
    const path = resolveScriptWord(firstShellWord(d.command, facts), d.cwd);
    const problem = path === undefined ? undefined : scriptProblem(path);
    if (path === undefined || problem === undefined) continue;
    const notice = diagnostic('warning', 'command_not_found', scriptProblemText(path, problem), {
      file: d.location.file,
      line: d.location.line,
      source: d.source as CoshSource,
      ...(d.name !== null ? { hook: d.name } : {}),
    });
    d.diagnostics = [...(d.diagnostics ?? []), notice];
    d.why ??= notice.message;
    out.push(notice);
  }
  return out;
}

/** Every cosh source as a catalog: loader order is dispatch order (SPEC §4.3), numbered per event. */
export async function loadCoshCatalog(loc: Locations, env: NodeJS.ProcessEnv): Promise<DialectCatalog> {
  const loaded = await loadCoshSources(loc, env);
  return { ...loaded, declarations: numberInEventOrder(loaded.declarations) };
}

/** cosh loaders already return dispatch order; this only numbers active hooks per event. */
function numberInEventOrder(decls: Declaration[]): OrderedDeclaration[] {
  const next = new Map<string, number>();
  return decls.map((d) => {
    if (d.status !== 'active') return { ...d, order: null };
    const n = (next.get(d.event) ?? 0) + 1;
    next.set(d.event, n);
    return { ...d, order: n };
  });
}
