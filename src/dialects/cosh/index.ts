// The cosh-core dialect (SPEC §4): one `Dialect` object. Light on purpose: the eight events are a
// small table; loaders, schemas and dispatch are imported inside the member that needs them.
import { basename, resolve } from 'node:path';
import { ExitCode } from '../../errors.js';
import { payloadSessionId } from '../session-id.js';
import { coshConfigLayers, coshSessionsDir, coshStatesFile, type Locations } from '../../paths.js';
import type { Dialect, DispatchResult, EventRow } from '../types.js';
import { COSH_DIAGNOSTIC_CODES } from './codes.js';
import { coshEvent, coshEventRow, coshEvents } from './events.js';
import type { CoshSource } from './model.js';

const SOURCES: readonly CoshSource[] = ['cosh_config', 'cosh_extension'];

let rows: readonly EventRow[] | undefined;

export const cosh: Dialect = {
  name: 'cosh',
  sources: SOURCES,
  environment: [
    ['COSH_HOME', 'cosh home: config.toml, extensions/, states/, sessions/ (default ~/.copilot-shell).'],
    [
      'COSH_SYSTEM_ROOT',
      'Prefix under which cosh system paths (etc/copilot-shell/, usr/share/anolisa/) are read (default /).',
    ],
  ],
  diagnosticCodes: COSH_DIAGNOSTIC_CODES,

  eventRows: () => (rows ??= coshEvents().map(coshEventRow)),
  hasEvent: (event) => coshEvent(event) !== undefined,
  async eventDetail(event) {
    const e = coshEvent(event);
    return e && (await import('./event-detail.js')).coshEventDetail(e);
  },
  async eventSchemas(event) {
    const e = coshEvent(event);
    return e && (await import('./event-detail.js')).coshEventSchemas(e);
  },

  sessionsDir: coshSessionsDir,

  async loadCatalog(loc, env) {
    return (await import('./load.js')).loadCoshCatalog(loc, env);
  },
  async validateFile(file, text, loc, env) {
    return (await import('./validate.js')).validateCoshNamedFile(file, text, loc, env);
  },
  schemaKindOf(file: string, loc: Locations) {
    const path = resolve(file);
    if (coshConfigLayers(loc).some((layer) => resolve(layer) === path)) return 'cosh-config';
    return basename(path) === 'cosh-extension.json' ? 'cosh-extension' : undefined;
  },
  async schemaDocument(kind, file, text) {
    return (await import('./validate.js')).coshSchemaDocument(kind, file, text);
  },

  sessionIdFor: payloadSessionId,
  async plan(req) {
    return (await import('./fire.js')).planCosh(req);
  },
  async dispatch(req) {
    return (await import('./fire.js')).dispatchCoshFire(req);
  },
  exitCode: (result: DispatchResult) =>
    result.verdict === 'block' ? ExitCode.no : result.verdict === 'ask' ? ExitCode.ask : ExitCode.ok,
  verdicts: ['allow', 'block', 'ask', 'pass'],

  mutations: {
    noun: 'cosh hook',
    switch: {
      async holds(loc, name) {
        const { readCoshStates } = await import('./states.js');
        return (await readCoshStates(coshStatesFile(loc))).disabled.includes(name);
      },
      async set(req, name, disabled) {
        return (await import('./switch.js')).setCoshHookSwitch(req, name, disabled);
      },
    },
  },
};
