// One settings file (claude.md §1–§2): managed-settings.json and its drop-ins, settings.json,
// settings.local.json. hookctl checks only `hooks`, `env`, `enabledPlugins` and the gates; the
// rest belongs to Claude. A wrong-typed gate, env or enabledPlugins makes Claude reject the file,
// so it is ignored whole; a wrong-typed `hooks` loses only its hooks.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Locator } from '../../../declarations/source-file.js';
import { claudeDiagnostic } from '../codes.js';
import { isPlainObject, readEventMap, strayEventKeys, type RawHandler } from './handlers.js';
import { parseJsonDoc, readJsonFile, type JsonRead } from '../json-doc.js';
import type { ClaudeSource } from '../model.js';

export interface SettingsValues {
  disableAllHooks?: boolean;
  allowManagedHooksOnly?: boolean;
  strictPluginOnlyCustomization?: boolean | string[];
  allowedHttpHookUrls?: string[];
  httpHookAllowedEnvVars?: string[];
  env?: Record<string, string>;
  enabledPlugins?: Record<string, boolean>;
}

export interface SettingsFile {
  file: string;
  source: ClaudeSource;
  origin: string;
  /** false: the file did not parse or Claude rejects it, and nothing of it applies. */
  usable: boolean;
  /** Only the keys the file sets, and only when usable. */
  values: SettingsValues;
  /** The file sets `hooks` (an object). */
  setsHooks: boolean;
  handlers: RawHandler[];
  diagnostics: Diagnostic[];
  locate: Locator;
  /** The text as read (edits start from it). */
  text: string;
}

const MANAGED_ONLY = new Set(['allowManagedHooksOnly', 'strictPluginOnlyCustomization']);

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

const SETTING_TYPES: Readonly<Record<keyof SettingsValues, [string, (v: unknown) => boolean]>> = {
  disableAllHooks: ['a boolean', (v) => typeof v === 'boolean'],
  allowManagedHooksOnly: ['a boolean', (v) => typeof v === 'boolean'],
  strictPluginOnlyCustomization: ['a boolean or a list of strings', (v) => typeof v === 'boolean' || isStrings(v)],
  allowedHttpHookUrls: ['a list of strings', isStrings],
  httpHookAllowedEnvVars: ['a list of strings', isStrings],
  env: ['an object of strings', (v) => isPlainObject(v) && Object.values(v).every((x) => typeof x === 'string')],
  enabledPlugins: [
    'an object of booleans',
    (v) => isPlainObject(v) && Object.values(v).every((x) => typeof x === 'boolean'),
  ],
};

export interface SettingsOptions {
  source: ClaudeSource;
  origin: string;
  managed: boolean;
}

/** Reads a settings file; undefined when it does not exist. */
export async function readSettingsFile(file: string, opts: SettingsOptions): Promise<SettingsFile | undefined> {
  const read = await readJsonFile(file, opts.source);
  if (read.kind === 'missing') return undefined;
  return settingsFromRead(read, file, '', opts);
}

export function parseSettingsText(text: string, file: string, opts: SettingsOptions): SettingsFile {
  return settingsFromRead(parseJsonDoc(text, file, opts.source), file, text, opts);
}

function settingsFromRead(read: JsonRead, file: string, text: string, opts: SettingsOptions): SettingsFile {
  const result: SettingsFile = {
    file,
    source: opts.source,
    origin: opts.origin,
    usable: false,
    values: {},
    setsHooks: false,
    handlers: [],
    diagnostics: [],
    locate: () => undefined,
    text,
  };
  if (read.kind === 'missing') return result;
  if (read.kind === 'bad') {
    result.diagnostics.push(read.diagnostic);
    return result;
  }
  const { doc } = read;
  result.text = doc.text;
  result.locate = doc.locate;
  const data = doc.value;
  const at = (key?: string) => (key === undefined ? { line: 1, column: 1 } : doc.locate([key]));
  if (!isPlainObject(data)) {
    result.diagnostics.push(
      claudeDiagnostic('error', 'claude_invalid_setting', 'settings must be a JSON object', file, at(), {
        source: opts.source,
      }),
    );
    return result;
  }
  let rejected = false;
  for (const key of Object.keys(SETTING_TYPES) as (keyof SettingsValues)[]) {
    if (!(key in data) || data[key] === null) continue;
    const [text, ok] = SETTING_TYPES[key];
    if (!ok(data[key])) {
      rejected = true;
      result.diagnostics.push(
        claudeDiagnostic('error', 'claude_invalid_setting', `${key} must be ${text}`, file, at(key), {
          source: opts.source,
        }),
      );
      continue;
    }
    if (MANAGED_ONLY.has(key) && !opts.managed) {
      result.diagnostics.push(
        claudeDiagnostic(
          'warning',
          'claude_managed_only_setting',
          `${key} is read only from managed settings; ignored here`,
          file,
          at(key),
          {
            source: opts.source,
          },
        ),
      );
      continue;
    }
    (result.values as Record<string, unknown>)[key] = data[key];
  }
  if (rejected) {
    result.values = {};
    return result;
  }
  result.usable = true;
  const stray = strayEventKeys(data, {
    file,
    source: opts.source,
    origin: opts.origin,
    kind: 'settings',
    locate: doc.locate,
    base: [],
  });
  const hooks = data.hooks;
  if (hooks !== undefined && hooks !== null) {
    if (!isPlainObject(hooks)) {
      result.diagnostics.push(
        claudeDiagnostic('error', 'claude_invalid_setting', 'hooks must be an object', file, at('hooks'), {
          source: opts.source,
        }),
      );
    } else {
      result.setsHooks = true;
      const map = readEventMap(hooks, {
        file,
        source: opts.source,
        origin: opts.origin,
        kind: 'settings',
        locate: doc.locate,
        base: ['hooks'],
      });
      result.handlers = map.handlers;
      result.diagnostics.push(...map.diagnostics);
    }
  }
  result.handlers.push(...stray.handlers);
  result.diagnostics.push(...stray.diagnostics);
  return result;
}

/** A value and the file that gave it (for `why` texts). */
export interface FromFile<T> {
  value: T;
  file: string;
}

export interface ManagedTier {
  files: SettingsFile[];
  /** Scalars: the last file that sets them; lists: unioned; objects: merged per key (claude.md §1). */
  disableAllHooks?: FromFile<boolean>;
  allowManagedHooksOnly?: FromFile<boolean>;
  strictPluginOnlyCustomization?: FromFile<boolean | string[]>;
  allowedHttpHookUrls?: string[];
  httpHookAllowedEnvVars?: string[];
  env: Record<string, string>;
  enabledPlugins: Record<string, FromFile<boolean>>;
}

/** managed-settings.json, then the drop-ins in name order, as one tier. */
export function mergeManagedTier(files: SettingsFile[]): ManagedTier {
  const tier: ManagedTier = { files, env: {}, enabledPlugins: {} };
  for (const f of files) {
    if (!f.usable) continue;
    const v = f.values;
    if (v.disableAllHooks !== undefined) tier.disableAllHooks = { value: v.disableAllHooks, file: f.file };
    if (v.allowManagedHooksOnly !== undefined)
      tier.allowManagedHooksOnly = { value: v.allowManagedHooksOnly, file: f.file };
    if (v.strictPluginOnlyCustomization !== undefined) {
      const before = tier.strictPluginOnlyCustomization?.value;
      const next = v.strictPluginOnlyCustomization;
      const value = Array.isArray(before) && Array.isArray(next) ? union(before, next) : next;
      tier.strictPluginOnlyCustomization = { value, file: f.file };
    }
    if (v.allowedHttpHookUrls) tier.allowedHttpHookUrls = union(tier.allowedHttpHookUrls ?? [], v.allowedHttpHookUrls);
    if (v.httpHookAllowedEnvVars)
      tier.httpHookAllowedEnvVars = union(tier.httpHookAllowedEnvVars ?? [], v.httpHookAllowedEnvVars);
    Object.assign(tier.env, v.env ?? {});
    for (const [id, on] of Object.entries(v.enabledPlugins ?? {}))
      tier.enabledPlugins[id] = { value: on, file: f.file };
  }
  return tier;
}

export function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
