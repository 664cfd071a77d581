// config.toml and requirements.toml (codex.md §1, §2.1–§2.3): smol-toml for values (integers as
// bigint, so a float timeout is told apart), toml-locate for positions. Only `[hooks]`,
// `[features]`, `[projects]`, `[plugins]` and `allow_managed_hooks_only` are read; every other key
// belongs to Codex and is not judged.
import { parse as parseToml, TomlError } from 'smol-toml';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { tomlMessage } from '../../../declarations/frontmatter.js';
import type { Locator, Position } from '../../../declarations/source-file.js';
import { locateTomlKeys } from '../../../declarations/toml-locate.js';
import {
  checkHooksDocument,
  codexDiagnostic,
  isTable,
  positionOf,
  type CheckedDocument,
  type Table,
} from '../rules/check.js';
import { q } from '../rules/names.js';
import type { DocumentMeta } from './json-file.js';

export interface TomlDocument {
  data: Table;
  locate: Locator;
}

export type TomlRead = { ok: true; doc: TomlDocument } | { ok: false; diagnostic: Diagnostic };

export function parseTomlText(text: string, file: string, source: string): TomlRead {
  try {
    const data = parseToml(text, { integersAsBigInt: true }) as Table;
    return { ok: true, doc: { data, locate: locateTomlKeys(text).locate } };
  } catch (err) {
    const at = err instanceof TomlError ? { line: err.line, column: err.column } : { line: 1 };
    return {
      ok: false,
      diagnostic: codexDiagnostic('error', 'toml_parse_error', `invalid TOML: ${tomlMessage(err)}`, file, at, {
        source,
      }),
    };
  }
}

/** The [hooks] table's event arrays; `state` (and requirements' managed dirs) are not events. */
export function checkTomlHooks(doc: TomlDocument, meta: DocumentMeta): CheckedDocument {
  const ownKeys = meta.fileKind === 'requirements_toml' ? ['managed_dir', 'windows_managed_dir', 'state'] : ['state'];
  return checkHooksDocument({
    hooks: doc.data.hooks,
    base: ['hooks'],
    locate: doc.locate,
    file: meta.file,
    fileKind: meta.fileKind,
    origin: meta.origin,
    source: meta.source,
    ownKeys,
    loadFailure: true,
    toml: true,
  });
}

/** `[hooks.state."<key>"]` of the user config.toml. */
export interface HookState {
  enabled?: boolean;
  trusted_hash?: string;
}

/** Reads [hooks.state]; entries of the wrong shape are codex_invalid_state and ignored. */
export function readHookStates(
  doc: TomlDocument,
  file: string,
  source: string,
): {
  states: Map<string, HookState>;
  diagnostics: Diagnostic[];
} {
  const states = new Map<string, HookState>();
  const diagnostics: Diagnostic[] = [];
  const hooks = doc.data.hooks;
  if (!isTable(hooks) || hooks.state === undefined) return { states, diagnostics };
  const bad = (key: string) =>
    diagnostics.push(
      codexDiagnostic(
        'warning',
        'codex_invalid_state',
        `hooks.state.${q(key)} must be a table with "enabled" (boolean) and "trusted_hash" (string); Codex ignores it`,
        file,
        positionOf(doc.locate, ['hooks', 'state', key]),
        { source },
      ),
    );
  if (!isTable(hooks.state)) {
    bad('');
    return { states, diagnostics };
  }
  for (const [key, v] of Object.entries(hooks.state)) {
    if (
      !isTable(v) ||
      (v.enabled !== undefined && typeof v.enabled !== 'boolean') ||
      (v.trusted_hash !== undefined && typeof v.trusted_hash !== 'string')
    ) {
      bad(key);
      continue;
    }
    const s: HookState = {};
    if (typeof v.enabled === 'boolean') s.enabled = v.enabled;
    if (typeof v.trusted_hash === 'string') s.trusted_hash = v.trusted_hash;
    states.set(key, s);
  }
  return { states, diagnostics };
}

/** `[hooks.state]` anywhere but the user config.toml: codex_state_ignored. */
export function stateIgnored(doc: TomlDocument, file: string, source: string): Diagnostic | undefined {
  const hooks = doc.data.hooks;
  if (!isTable(hooks) || hooks.state === undefined) return undefined;
  return codexDiagnostic(
    'warning',
    'codex_state_ignored',
    '[hooks.state] is read only from the user config.toml; ignored here',
    file,
    positionOf(doc.locate, ['hooks', 'state']),
    { source },
  );
}

/** What a file's [features] says of hooks: `hooks` beats `codex_hooks` in one file. */
export interface FeatureSetting {
  key: 'hooks' | 'codex_hooks';
  value: boolean;
  file: string;
  at: Position;
}

export function readFeature(
  doc: TomlDocument,
  file: string,
  source: string,
): { setting?: FeatureSetting; diagnostics: Diagnostic[] } {
  const features = doc.data.features;
  const diagnostics: Diagnostic[] = [];
  if (!isTable(features)) return { diagnostics };
  if (features.codex_hooks !== undefined)
    diagnostics.push(
      codexDiagnostic(
        'warning',
        'codex_deprecated_feature_key',
        '[features] codex_hooks is a deprecated alias; use [features] hooks',
        file,
        positionOf(doc.locate, ['features', 'codex_hooks']),
        { source },
      ),
    );
  for (const key of ['hooks', 'codex_hooks'] as const) {
    const v = features[key];
    if (typeof v === 'boolean')
      return { setting: { key, value: v, file, at: positionOf(doc.locate, ['features', key]) }, diagnostics };
  }
  return { diagnostics };
}

/** `[projects."<path>"] trust_level` entries of the user config.toml. */
export function readProjectTrust(doc: TomlDocument | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const projects = doc?.data.projects;
  if (!isTable(projects)) return out;
  for (const [path, v] of Object.entries(projects))
    if (isTable(v) && typeof v.trust_level === 'string') out.set(path, v.trust_level);
  return out;
}

/** `[plugins."<id>"] enabled = true` of the user config.toml. */
export function readEnabledPlugins(doc: TomlDocument | undefined): string[] {
  const plugins = doc?.data.plugins;
  if (!isTable(plugins)) return [];
  return Object.entries(plugins)
    .filter(([, v]) => isTable(v) && v.enabled === true)
    .map(([id]) => id);
}
