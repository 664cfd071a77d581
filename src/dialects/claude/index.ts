// The claude dialect (claude.md): Claude Code hooks from settings files, plugins, skills and
// subagents. One `Dialect` object; src/dialects/registry.ts lists it. Loaders, validation and
// dispatch are imported on first use, so `list` never loads the runner and `events` no loader.
import type { Dialect, DialectCatalog, EventRow, FileValidation } from '../types.js';
import type { Locations } from '../../paths.js';
import { claudeEvent } from './catalog.js';
import { claudeEventDetail, claudeEventRows, claudeEventSchemas } from './events.js';
import { claudeLocations, sessionsDirOf } from './locations.js';
import { verdictExitCode } from './combine.js';
import { claudeSessionIdFor } from './payload.js';

/** --plugin-dir folders and the state dir travel in the shared Locations once the CLI sets them. */
type ClaudeAwareLocations = Locations & { pluginDirs?: string[]; stateDir?: string };

const pluginDirsOf = (loc: Locations) => (loc as ClaudeAwareLocations).pluginDirs ?? [];

export const claudeDialect: Dialect = {
  name: 'claude',

  // The rows are EventRow plus the catalog entry; its interface types carry no index signature.
  eventRows: () => claudeEventRows() as unknown as readonly EventRow[],
  hasEvent: (event) => claudeEvent(event) !== undefined,
  eventDetail: async (event) => claudeEventDetail(event),
  eventSchemas: async (event) => claudeEventSchemas(event),

  sessionsDir: (loc) =>
    sessionsDirOf((loc as ClaudeAwareLocations).stateDir ?? claudeLocations(loc, process.env).stateDir),

  async loadCatalog(loc, env): Promise<DialectCatalog> {
    const { loadClaudeSources } = await import('./load.js');
    return loadClaudeSources(loc, env, { pluginDirs: pluginDirsOf(loc) });
  },

  async validateFile(file, text, loc, env): Promise<FileValidation | undefined> {
    const { validateClaudeFile } = await import('./validate-file.js');
    const diagnostics = await validateClaudeFile(file, text, claudeLocations(loc, env, pluginDirsOf(loc)));
    return diagnostics === undefined ? undefined : { diagnostics };
  },

  sessionIdFor: claudeSessionIdFor,
  async plan(req) {
    const { planClaude } = await import('./plan.js');
    return planClaude(req);
  },
  async dispatch(req) {
    const { dispatchClaude } = await import('./dispatch.js');
    return dispatchClaude(req);
  },
  exitCode: (result) => verdictExitCode(String(result.verdict)),
};
