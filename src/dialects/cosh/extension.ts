// One cosh-extension.json (SPEC §4.3): the manifest's name and version, and its hooks in group
// order with each group's matcher inherited and `${...}` variables expanded.
import { dirname, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../declarations/diagnostics.js';
import {
  checkCoshMatcher,
  diagnostic,
  isCoshEventName,
  unknownEventMessage,
  validateCoshHook,
  type At,
  type CoshField,
  type CoshHookSpec,
  type RawCoshHook,
} from './hook.js';
import {
  jsonEntry,
  jsonValue,
  parseJsonWithPositions,
  type JsonNode,
  type JsonObject,
} from '../../declarations/json.js';
import { readSourceFile } from '../../declarations/source-file.js';

const SOURCE = 'cosh_extension' as const;
export const COSH_EXTENSION_MANIFEST = 'cosh-extension.json';
const COSH_DEFAULT_EXTENSION_VERSION = '0.0.0';

/** Top-level keys hookctl reads. */
const OWN_KEYS = ['name', 'version', 'hooks'];
/**
 * Top-level keys that belong to the cosh runtime (skills, context files, MCP servers, settings
 * and the like, as cosh-core and the gemini/qwen extension formats it descends from write them).
 * Not ours to judge, so no warning; any other top-level key warns.
 */
export const COSH_RUNTIME_EXTENSION_KEYS: readonly string[] = [
  'description',
  'skills',
  'contextFileName',
  'mcpServers',
  'excludeTools',
  'settings',
  'commands',
  'agents',
  'themes',
  'lspServers',
  'channels',
  'plan',
  'author',
  'license',
  'homepage',
  'repository',
  'keywords',
];
const TOP_KEYS: ReadonlySet<string> = new Set([...OWN_KEYS, ...COSH_RUNTIME_EXTENSION_KEYS]);
const GROUP_KEYS: ReadonlySet<string> = new Set(['matcher', 'sequential', 'hooks']);
const HOOK_KEYS: ReadonlySet<string> = new Set(['type', 'name', 'command', 'timeout', 'description', 'env']);

/** Lowercase [a-z0-9] at both ends, `.`, `_`, `-` inside; the byte limit is checked apart. */
const EXTENSION_NAME = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;
const EXTENSION_NAME_MAX_BYTES = 64;

export interface CoshExtensionManifest {
  file: string;
  /** The extension root, `${extensionPath}`. */
  dir: string;
  /** Set only when the manifest's name is valid: an extension without one contributes nothing. */
  name?: string;
  nameLine: number;
  version: string;
  /** Valid hooks (named or nameless), variables expanded, in event, group and hook order. */
  hooks: CoshHookSpec[];
  diagnostics: Diagnostic[];
}

/** Reads one manifest; undefined when the file does not exist. */
export async function readCoshExtension(file: string, workspace: string): Promise<CoshExtensionManifest | undefined> {
  const read = await readSourceFile(file, SOURCE);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'bad') return emptyManifest(file, [read.diagnostic]);
  return parseCoshExtension(file, read.text, workspace);
}

export function coshExtensionNameError(name: string): string | undefined {
  if (Buffer.byteLength(name, 'utf8') > EXTENSION_NAME_MAX_BYTES) {
    return `extension name "${name}" is longer than ${EXTENSION_NAME_MAX_BYTES} bytes`;
  }
  if (!EXTENSION_NAME.test(name)) {
    return `extension name "${name}" is invalid: use lowercase letters and digits, with ".", "_" or "-" only inside`;
  }
  return undefined;
}

/** `${extensionPath}`, `${workspacePath}` and `${/}`; anything else is left for the shell. */
export function expandCoshVariables(value: string, extensionPath: string, workspacePath: string): string {
  return value.replace(/\$\{(extensionPath|workspacePath|\/)\}/g, (_, name: string) =>
    name === 'extensionPath' ? extensionPath : name === 'workspacePath' ? workspacePath : sep,
  );
}

export function parseCoshExtension(file: string, text: string, workspace: string): CoshExtensionManifest {
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return emptyManifest(file, [
      {
        severity: 'error',
        code: 'json_parse_error',
        message: `invalid JSON: ${message.replace(/\s+/g, ' ')}`,
        file,
        line,
        column,
        source: SOURCE,
      },
    ]);
  }
  const root = parsed.value;
  const at = (node: { line: number; column: number }, hook?: string): At => {
    const a: At = { file, line: node.line, column: node.column, source: SOURCE };
    if (hook !== undefined) a.hook = hook;
    return a;
  };
  if (root.kind !== 'object') {
    return emptyManifest(file, [
      diagnostic('error', 'invalid_section', `the manifest must be a JSON object, got ${root.kind}`, at(root)),
    ]);
  }
  const manifest = emptyManifest(file, []);
  const diagnostics = manifest.diagnostics;

  for (const entry of root.entries) {
    if (!TOP_KEYS.has(entry.key))
      diagnostics.push(diagnostic('warning', 'unknown_key', `unknown key "${entry.key}" is ignored`, at(entry)));
  }

  const nameEntry = jsonEntry(root, 'name');
  manifest.nameLine = nameEntry?.line ?? root.line;
  if (nameEntry === undefined) {
    diagnostics.push(diagnostic('error', 'extension_name_required', 'extension "name" is required', at(root)));
  } else if (nameEntry.value.kind !== 'string') {
    diagnostics.push(
      diagnostic(
        'error',
        'invalid_field_type',
        `extension "name" must be a string, got ${nameEntry.value.kind}`,
        at(nameEntry),
      ),
    );
  } else {
    const name = nameEntry.value.value as string;
    const why = coshExtensionNameError(name);
    if (why === undefined) manifest.name = name;
    else diagnostics.push(diagnostic('error', 'invalid_extension_name', why, at(nameEntry)));
  }

  const versionEntry = jsonEntry(root, 'version');
  if (versionEntry !== undefined) {
    if (versionEntry.value.kind === 'string') manifest.version = versionEntry.value.value as string;
    else
      diagnostics.push(
        diagnostic(
          'error',
          'invalid_field_type',
          `extension "version" must be a string, got ${versionEntry.value.kind}`,
          at(versionEntry),
        ),
      );
  }

  const hooksEntry = jsonEntry(root, 'hooks');
  if (hooksEntry !== undefined) {
    if (hooksEntry.value.kind !== 'object') {
      diagnostics.push(
        diagnostic(
          'error',
          'invalid_section',
          `"hooks" must be an object of events, got ${hooksEntry.value.kind}`,
          at(hooksEntry),
        ),
      );
    } else {
      readEvents(hooksEntry.value, manifest, workspace, at);
    }
  }
  return manifest;
}

function readEvents(
  hooks: JsonObject,
  manifest: CoshExtensionManifest,
  workspace: string,
  at: (node: { line: number; column: number }, hook?: string) => At,
): void {
  const diagnostics = manifest.diagnostics;
  for (const eventEntry of hooks.entries) {
    const event = eventEntry.key;
    if (!isCoshEventName(event)) {
      diagnostics.push(diagnostic('error', 'invalid_event', unknownEventMessage(event), at(eventEntry)));
      continue;
    }
    if (eventEntry.value.kind !== 'array') {
      diagnostics.push(
        diagnostic(
          'error',
          'invalid_section',
          `hooks.${event} must be an array of groups, got ${eventEntry.value.kind}`,
          at(eventEntry),
        ),
      );
      continue;
    }
    eventEntry.value.items.forEach((group, g) => {
      const groupPath = `hooks.${event}[${g}]`;
      if (group.kind !== 'object') {
        diagnostics.push(
          diagnostic('error', 'invalid_section', `${groupPath} must be an object, got ${group.kind}`, at(group)),
        );
        return;
      }
      for (const e of group.entries) {
        if (!GROUP_KEYS.has(e.key))
          diagnostics.push(
            diagnostic('warning', 'unknown_key', `unknown key "${e.key}" in ${groupPath} is ignored`, at(e)),
          );
      }
      // `sequential` is accepted for compatibility: cosh hooks always run in order.
      const sequential = jsonEntry(group, 'sequential');
      if (sequential !== undefined && sequential.value.kind !== 'boolean') {
        diagnostics.push(
          diagnostic(
            'warning',
            'invalid_field_type',
            `${groupPath}.sequential must be a boolean, got ${sequential.value.kind}; it is ignored`,
            at(sequential),
          ),
        );
      }
      let groupOk = true;
      let matcher: string | undefined;
      const matcherEntry = jsonEntry(group, 'matcher');
      if (matcherEntry !== undefined) {
        const m = checkCoshMatcher(jsonValue(matcherEntry.value), event, `${groupPath}.matcher`, () =>
          at(matcherEntry, groupHookNames(group)),
        );
        diagnostics.push(...m.diagnostics);
        groupOk = m.ok;
        matcher = m.matcher;
      }
      const hooksEntry = jsonEntry(group, 'hooks');
      if (hooksEntry === undefined) {
        diagnostics.push(
          diagnostic('error', 'invalid_section', `${groupPath}.hooks is required (an array of hooks)`, at(group)),
        );
        return;
      }
      if (hooksEntry.value.kind !== 'array') {
        diagnostics.push(
          diagnostic(
            'error',
            'invalid_section',
            `${groupPath}.hooks must be an array, got ${hooksEntry.value.kind}`,
            at(hooksEntry),
          ),
        );
        return;
      }
      hooksEntry.value.items.forEach((hook, h) => {
        const spec = readHook(hook, event, `${groupPath}.hooks[${h}]`, matcher, manifest, at);
        if (spec && groupOk) manifest.hooks.push(expandSpec(spec, manifest.dir, workspace));
      });
    });
  }
}

/** The names of a group's hooks, for a diagnostic about what they share (its matcher). */
function groupHookNames(group: JsonObject): string | undefined {
  const hooks = jsonEntry(group, 'hooks')?.value;
  if (hooks?.kind !== 'array') return undefined;
  const names = hooks.items.flatMap((h) => {
    const name = h.kind === 'object' ? jsonEntry(h, 'name')?.value : undefined;
    return name?.kind === 'string' && name.value !== '' ? [name.value as string] : [];
  });
  return names.length > 0 ? names.join(', ') : undefined;
}

function readHook(
  node: JsonNode,
  event: string,
  path: string,
  groupMatcher: string | undefined,
  manifest: CoshExtensionManifest,
  at: (node: { line: number; column: number }, hook?: string) => At,
): CoshHookSpec | undefined {
  if (node.kind !== 'object') {
    manifest.diagnostics.push(
      diagnostic('error', 'invalid_section', `${path} must be an object, got ${node.kind}`, at(node)),
    );
    return undefined;
  }
  const fields = new Map<string, CoshField>();
  for (const e of node.entries) fields.set(e.key, { value: jsonValue(e.value), line: e.line, column: e.column });
  const raw: RawCoshHook = {
    source: SOURCE,
    file: manifest.file,
    event,
    path,
    line: node.line,
    column: node.column,
    fields,
    knownKeys: HOOK_KEYS,
  };
  if (groupMatcher !== undefined) raw.groupMatcher = groupMatcher;
  const check = validateCoshHook(raw);
  manifest.diagnostics.push(...check.diagnostics);
  return check.spec;
}

function expandSpec(spec: CoshHookSpec, extensionPath: string, workspace: string): CoshHookSpec {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.env)) env[k] = expandCoshVariables(v, extensionPath, workspace);
  return { ...spec, command: expandCoshVariables(spec.command, extensionPath, workspace), env };
}

function emptyManifest(file: string, diagnostics: Diagnostic[]): CoshExtensionManifest {
  return {
    file,
    dir: dirname(resolve(file)),
    nameLine: 1,
    version: COSH_DEFAULT_EXTENSION_VERSION,
    hooks: [],
    diagnostics,
  };
}
