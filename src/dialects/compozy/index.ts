// The CompozyOS dialect (SPEC §2–§3): one `Dialect` object. Light on purpose: it loads the small
// event catalog, and imports loaders, rules, payload types and dispatch only inside the member
// that needs them (src/dialects/types.ts).
import { basename, resolve } from 'node:path';
import { ExitCode } from '../../errors.js';
import { payloadSessionId } from '../session-id.js';
import { compozyGlobalConfig, compozySessionsDir, compozyWorkspaceConfig, type Locations } from '../../paths.js';
import type { Dialect, DispatchResult, EventRow } from '../types.js';
import { loadCompozyCatalog } from './catalog.js';
import { compozyEvent, compozyEventRow, compozyEvents, REMOVED_LEGACY_EVENTS } from './events.js';
import { compozyReleaseUnreadable, configureCompozyRelease, selectedCompozyRelease } from './release-selection.js';
import { COMPOZY_VERSION_ENV, eventInRelease, selectCompozyRelease } from './releases.js';
import type { CompozySource } from './model.js';

const SOURCES: readonly CompozySource[] = ['native', 'config', 'extension', 'agent_definition', 'skill'];

/** The event rows of one release (one per process in practice; tests switch releases). */
const rowsByRelease = new Map<string, readonly EventRow[]>();

export const compozy: Dialect = {
  name: 'compozy',
  sources: SOURCES,
  environment: [
    ['COMPOZY_HOME', 'CompozyOS home: config.toml, extensions/, agents/, skills/, sessions/ (default ~/.compozy).'],
  ],

  globalFlags: [
    {
      name: 'compozy-version',
      env: COMPOZY_VERSION_ENV,
      description: `CompozyOS release whose event catalog applies (default: the newest; also ${COMPOZY_VERSION_ENV}).`,
    },
  ],
  configure(env, typed) {
    configureCompozyRelease(env, typed?.has(COMPOZY_VERSION_ENV) === true);
  },
  catalogVersion() {
    const r = selectedCompozyRelease();
    const how = r.newest ? 'the newest' : 'selected';
    const behaves = r.catalogOf !== r.label ? `; its catalog is unknown, so ${r.catalogOf}'s applies` : '';
    return `CompozyOS ${r.label}${r.name !== r.label ? ` (${r.name})` : ''}, ${how}${behaves}`;
  },
  async catalogChanges() {
    return (await import('./release-changes.js')).compozyReleaseChanges(selectedCompozyRelease());
  },

  eventRows() {
    const label = selectedCompozyRelease().label;
    let rows = rowsByRelease.get(label);
    if (rows === undefined) rowsByRelease.set(label, (rows = compozyEvents().map(compozyEventRow)));
    return rows;
  },
  // With a bad release variable, an event no release has ever had is simply not compozy's: looking
  // up a claude or cosh event must not stop on compozy's setting (issue 24).
  hasEvent: (event) =>
    compozyReleaseUnreadable() && eventInRelease(event, selectCompozyRelease(undefined, {})).kind === 'unknown'
      ? false
      : compozyEvent(event) !== undefined,
  removedEventHint(event) {
    const replacement = REMOVED_LEGACY_EVENTS[event];
    if (replacement) return `hook event "${event}" was removed; use "${replacement}"`;
    // An event another release has (SPEC §10): say which, and how to select it.
    const release = selectedCompozyRelease();
    const found = eventInRelease(event, release);
    if (found.kind === 'present' || found.kind === 'unknown') return undefined;
    const others = found.kind === 'outside_releases' ? '' : '; select another with --compozy-version';
    return `event "${event}" is not in CompozyOS ${release.label}: ${found.reason}${others} (see: hookctl hooks events --changes)`;
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

  sessionIdFor: payloadSessionId,
  async plan(req) {
    return (await import('./fire.js')).planCompozy(req);
  },
  async dispatch(req) {
    return (await import('./fire.js')).dispatchCompozyFire(req);
  },
  exitCode: (result: DispatchResult) =>
    result.verdict === 'denied' ? ExitCode.no : result.verdict === 'failed' ? ExitCode.dispatchFailed : ExitCode.ok,
  verdicts: ['completed', 'stopped', 'denied', 'failed'],

  mutations: {
    noun: 'hook',
    config: {
      fileOf: (loc, scope) => (scope === 'global' ? compozyGlobalConfig(loc) : compozyWorkspaceConfig(loc)),
      source: 'config',
      async readTarget(file, req) {
        return (await import('./edit/config-change.js')).readTarget(file, req);
      },
      async changesFromFlags(action, flags) {
        const { changesForAction, declarationFlagsOf } = await import('./edit/flags-to-fields.js');
        return changesForAction(action, declarationFlagsOf(flags));
      },
      async change(req, file, name) {
        return (await import('./edit/config-change.js')).changeCompozyFile(req, file, name);
      },
    },
  },
};
