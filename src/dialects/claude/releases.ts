// Claude Code releases (claude.md §9): which release a command follows (`--claude-version V`,
// HOOKCTL_CLAUDE_VERSION, else the newest), and each catalog item and rule as of that release,
// from the markers claude-events.json carries (`since`, `removed_in`, `field_since`, …). One
// process runs one command: the choice is made once, at the start (configureClaudeRelease).
import { usageError, type HookctlError } from '../../errors.js';
import type { ClaudeEventData } from './catalog-types.js';
import { CLAUDE_CODE_VERSION, claudeCatalogMeta } from './catalog.generated.js';

/** The environment variable that selects a release when `--claude-version` is not given. */
export const CLAUDE_VERSION_ENV = 'HOOKCTL_CLAUDE_VERSION';

export interface ClaudeRelease {
  /** The release as asked for, `2.1.N`. */
  version: string;
  /** The `versions` entry it behaves as: the nearest at or below it. */
  entry: string;
  newest: boolean;
}

/** Numeric comparison of dotted versions: 2.1.99 < 2.1.100. */
export function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split('.').map(Number);
  const pb = b.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The `versions` entries, oldest first: built on first use, as the catalog is (catalog.ts). */
let entryList: readonly string[] | undefined;
function versionEntries(): readonly string[] {
  return (entryList ??= claudeCatalogMeta().versions.map((v) => v.version));
}
/** The newest release (the catalog's `claude_code_version`, a plain constant: read at start-up). */
export const NEWEST_CLAUDE_VERSION = CLAUDE_CODE_VERSION;

export const NEWEST_CLAUDE_RELEASE: ClaudeRelease = {
  version: NEWEST_CLAUDE_VERSION,
  entry: NEWEST_CLAUDE_VERSION,
  newest: true,
};

function unknownVersion(wanted: string): HookctlError {
  return usageError(
    `unknown Claude Code version "${wanted}"; hookctl knows ${versionEntries()[0]!} to ${NEWEST_CLAUDE_VERSION} (newest)`,
    'unknown_claude_version',
  );
}

/** The release V names (`2.1.N` or `v2.1.N`, 2.1.0 to the newest); empty or absent: the newest. */
export function parseClaudeRelease(wanted: string | undefined): ClaudeRelease {
  if (wanted === undefined || wanted === '') return NEWEST_CLAUDE_RELEASE;
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(wanted.trim());
  if (m === null) throw unknownVersion(wanted);
  const version = `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}`;
  const entries = versionEntries();
  if (compareVersions(version, entries[0]!) < 0 || compareVersions(version, NEWEST_CLAUDE_VERSION) > 0)
    throw unknownVersion(wanted);
  const entry = [...entries].reverse().find((e) => compareVersions(e, version) <= 0)!;
  return { version, entry, newest: compareVersions(version, NEWEST_CLAUDE_VERSION) === 0 };
}

let selected: ClaudeRelease | undefined;

/** The selected release; before any configuration, the one HOOKCTL_CLAUDE_VERSION names (else the newest). */
export function selectedClaudeRelease(): ClaudeRelease {
  if (selected === undefined) {
    try {
      selected = parseClaudeRelease(process.env[CLAUDE_VERSION_ENV]);
    } catch {
      selected = NEWEST_CLAUDE_RELEASE; // configure() reports a bad value as a usage error
    }
  }
  return selected;
}

/** Selects the release `env` names (the flag is already in it); a bad value is a usage error. */
export function configureClaudeRelease(env: NodeJS.ProcessEnv): ClaudeRelease {
  selected = parseClaudeRelease(env[CLAUDE_VERSION_ENV]);
  return selected;
}

/** For tests: select a release directly (`'2.1.240'`); undefined forgets the choice. */
export function useClaudeRelease(version: string | undefined): void {
  selected = version === undefined ? undefined : parseClaudeRelease(version);
}

/** Whether an item marked `since` (and `removed_in`) exists in the release. */
export function inRelease(since: string | null | undefined, removedIn?: string, r = selectedClaudeRelease()): boolean {
  if (since !== null && since !== undefined && compareVersions(since, r.entry) > 0) return false;
  return removedIn === undefined || compareVersions(removedIn, r.entry) > 0;
}

/** Whether a `version_rules` rule holds in the release (claude.md §9). */
export function ruleHolds(id: string, r = selectedClaudeRelease()): boolean {
  const rule = claudeCatalogMeta().version_rules.find((x) => x.id === id);
  return rule === undefined || inRelease(rule.since, undefined, r);
}

/** The release that added a rule, for messages. */
export function ruleSince(id: string): string | undefined {
  return claudeCatalogMeta().version_rules.find((x) => x.id === id)?.since;
}

/** How `hooks events` names the release: `Claude Code 2.1.240, selected`. */
export function describeClaudeRelease(r = selectedClaudeRelease()): string {
  const behaves = r.entry !== r.version ? `; it behaves as ${r.entry}` : '';
  return `Claude Code ${r.version}, ${r.newest ? 'the newest' : 'selected'}${behaves}`;
}

/**
 * An event as the release has it: the items of payload_fields, output_fields and
 * matcher_values the release has (field_since, field_removed_in), and the values of `before`
 * that apply below their `until`. Undefined when the release does not have the event.
 */
export function eventInRelease(e: ClaudeEventData, r = selectedClaudeRelease()): ClaudeEventData | undefined {
  if (!inRelease(e.since, e.removed_in, r)) return undefined;
  if (r.newest || (e.field_since === undefined && e.field_removed_in === undefined && e.before === undefined)) return e;
  const has = (list: string, item: string) =>
    inRelease(e.field_since?.[`${list}.${item}`], e.field_removed_in?.[`${list}.${item}`], r);
  const removedItems = (list: string) =>
    Object.entries(e.field_removed_in ?? {})
      .filter(([k, v]) => k.startsWith(`${list}.`) && inRelease(undefined, v, r))
      .map(([k]) => k.slice(list.length + 1));
  const filter = (list: 'payload_fields' | 'output_fields') => [
    ...e[list].filter((f) => has(list, f)),
    ...removedItems(list).filter((f) => !e[list].includes(f)),
  ];
  let out: ClaudeEventData = {
    ...e,
    payload_fields: filter('payload_fields'),
    output_fields: filter('output_fields').filter((f) =>
      inRelease(claudeCatalogMeta().field_since[`universal_output_fields.${f}`], undefined, r),
    ),
    matcher_values:
      e.matcher_values === null
        ? null
        : [
            ...e.matcher_values.filter((v) => has('matcher_values', v)),
            ...removedItems('matcher_values').filter((v) => !e.matcher_values!.includes(v)),
          ],
  };
  const applies = (e.before ?? [])
    .filter((b) => compareVersions(r.entry, b.until) < 0)
    .sort((a, b) => compareVersions(a.until, b.until));
  for (const b of [...applies].reverse()) out = { ...out, ...(b.values as Partial<ClaudeEventData>) };
  return out;
}
