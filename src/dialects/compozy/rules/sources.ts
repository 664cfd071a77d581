// What each compozy source may write (SPEC §2.1 field table, §2.4 sources, §6): the keys, and how
// autonomy fields written flat and retired matcher keys are treated.
import type { CompozySource } from '../model.js';

export const EXECUTOR_FIELDS = ['command', 'args', 'env', 'secret_env'] as const;
const COMMON_KEYS = [
  'name',
  'event',
  'mode',
  'required',
  'priority',
  'timeout',
  'matcher',
  ...EXECUTOR_FIELDS,
  'executor',
];

export interface SourceRules {
  keys: ReadonlySet<string>;
  /** Autonomy fields written flat under matcher: accepted with a warning, or an error. */
  flatAutonomy: 'warn' | 'error';
  /** compaction_reason/compaction_strategy: dropped with "retired matcher key", or by the v0.6.0 shim. */
  retiredKeys: 'retired' | 'shim';
}

export const SOURCE_RULES: Readonly<Record<CompozySource, SourceRules>> = {
  native: { keys: new Set([...COMMON_KEYS, 'enabled', 'metadata']), flatAutonomy: 'warn', retiredKeys: 'retired' },
  config: { keys: new Set([...COMMON_KEYS, 'enabled', 'metadata']), flatAutonomy: 'warn', retiredKeys: 'retired' },
  agent_definition: {
    keys: new Set([...COMMON_KEYS, 'enabled', 'metadata']),
    flatAutonomy: 'warn',
    retiredKeys: 'shim',
  },
  // Extensions: no `enabled`, no user `metadata` (the loader sets `extension = <name>`).
  extension: { keys: new Set(COMMON_KEYS), flatAutonomy: 'error', retiredKeys: 'retired' },
  // SKILL.md: no name (generated), required, enabled, metadata or executor.
  skill: {
    keys: new Set(['event', 'mode', 'priority', 'timeout', 'command', 'args', 'env', 'secret_env', 'matcher']),
    flatAutonomy: 'error',
    retiredKeys: 'shim',
  },
};
