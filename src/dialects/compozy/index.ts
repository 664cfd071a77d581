// The CompozyOS dialect (SPEC §2–§3): one `Dialect` object. Light on purpose: it loads the small
// event catalog, and imports loaders, rules, payload types and dispatch only inside the member
// that needs them (src/dialects/types.ts).
import { basename, resolve } from 'node:path';
import { ExitCode } from '../../errors.js';
import { compozyGlobalConfig, compozySessionsDir, compozyWorkspaceConfig, type Locations } from '../../paths.js';
import type { Dialect, DispatchResult, EventRow } from '../types.js';
import { loadCompozyCatalog } from './catalog.js';
import { compozyEvent, compozyEventRow, compozyEvents, REMOVED_LEGACY_EVENTS } from './events.js';
import type { DeclarationFlags } from './edit/flags-to-fields.js';
import type { CompozySource } from './model.js';

const SOURCES: readonly CompozySource[] = ['native', 'config', 'extension', 'agent_definition', 'skill'];

let rows: readonly EventRow[] | undefined;

export const compozy: Dialect = {
  name: 'compozy',
  sources: SOURCES,

  eventRows: () => (rows ??= compozyEvents().map(compozyEventRow)),
  hasEvent: (event) => compozyEvent(event) !== undefined,
  removedEventHint(event) {
    const replacement = REMOVED_LEGACY_EVENTS[event];
    return replacement && `hook event "${event}" was removed; use "${replacement}"`;
  },
  async eventDetail(event) {
    const e = compozyEvent(event);
    return e && (await import('./event-detail.js')).compozyEventDetail(e);
  },
  async eventSchemas(event) {
    const e = compozyEvent(event);
    return e && (await import('./event-detail.js')).compozyEventSchemas(e);
  },

  sessionsDir: compozySessionsDir,

  loadCatalog: loadCompozyCatalog,
  claimsUnknownFiles: true,
  async validateFile(file, text, loc, env) {
    return (await import('./validate.js')).validateCompozyNamedFile(file, text, loc, env);
  },
  schemaKindOf(file: string, loc: Locations) {
    const path = resolve(file);
    if (path === resolve(compozyGlobalConfig(loc)) || path === resolve(compozyWorkspaceConfig(loc)))
      return 'compozy-config';
    switch (basename(path)) {
      case 'extension.toml':
      case 'extension.json':
        return 'compozy-extension';
      case 'AGENT.md':
        return 'compozy-agent';
      case 'SKILL.md':
        return 'compozy-skill';
    }
    return undefined;
  },
  async schemaDocument(kind, file, text) {
    return (await import('./validate.js')).compozySchemaDocument(kind, file, text);
  },

  sessionIdFor: (payload) =>
    typeof payload.session_id === 'string' && payload.session_id !== '' ? payload.session_id : undefined,
  async plan(req) {
    return (await import('./fire.js')).planCompozy(req);
  },
  async dispatch(req) {
    return (await import('./fire.js')).dispatchCompozyFire(req);
  },
  exitCode: (result: DispatchResult) =>
    result.verdict === 'denied' ? ExitCode.no : result.verdict === 'failed' ? ExitCode.dispatchFailed : ExitCode.ok,

  mutations: {
    noun: 'hook',
    config: {
      fileOf: (loc, scope) => (scope === 'global' ? compozyGlobalConfig(loc) : compozyWorkspaceConfig(loc)),
      source: 'config',
      async readTarget(file, req) {
        return (await import('./edit/config-change.js')).readTarget(file, req);
      },
      async changesFromFlags(action, flags) {
        return (await import('./edit/flags-to-fields.js')).changesForAction(action, flags as DeclarationFlags);
      },
      async change(req, file, name) {
        return (await import('./edit/config-change.js')).changeCompozyFile(req, file, name);
      },
    },
  },
};
