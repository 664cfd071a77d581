// The claude dialect (claude.md): Claude Code hooks from settings files, plugins, skills and
// subagents. One `Dialect` object; src/dialects/registry.ts lists it.
import type { Dialect, DialectCatalog, EventRow, FileValidation } from '../types.js';
import type { Locations } from '../../paths.js';
import { claudeEvent } from './catalog.js';
import { claudeEventDetail, claudeEventRows, claudeEventSchemas } from './events.js';
import { claudeLocations, claudeSessionsDir } from './locations.js';

/** --plugin-dir folders and the state dir travel in the shared Locations once the CLI sets them. */
type ClaudeAwareLocations = Locations & { pluginDirs?: string[]; stateDir?: string };

export const claudeDialect: Dialect = {
  name: 'claude',

  eventRows: () => claudeEventRows() as unknown as readonly EventRow[],
  hasEvent: (event) => claudeEvent(event) !== undefined,
  eventDetail: async (event) => claudeEventDetail(event),
  eventSchemas: async (event) => claudeEventSchemas(event),

  sessionsDir: (loc) => {
    const l = loc as ClaudeAwareLocations;
    return claudeSessionsDir(l.stateDir ?? claudeLocations(loc, process.env).stateDir);
  },

  async loadCatalog(loc, env): Promise<DialectCatalog> {
    const { loadClaudeSources } = await import('./load.js');
    return loadClaudeSources(loc, env, { pluginDirs: (loc as ClaudeAwareLocations).pluginDirs ?? [] });
  },

  async validateFile(file, text, loc, env): Promise<FileValidation | undefined> {
    const { validateClaudeFile } = await import('./validate-file.js');
    const cl = claudeLocations(loc, env, (loc as ClaudeAwareLocations).pluginDirs ?? []);
    const diagnostics = await validateClaudeFile(file, text, cl);
    return diagnostics === undefined ? undefined : { diagnostics };
  },

  // ---- fire: claude-run's half (plan/dispatch), connected at integration ----
  sessionIdFor: () => {
    throw new Error('claude fire is not connected yet');
  },
  plan: async () => {
    throw new Error('claude fire is not connected yet');
  },
  dispatch: async () => {
    throw new Error('claude fire is not connected yet');
  },
  exitCode: () => 0,
};
