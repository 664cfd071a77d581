// `hooks events --changes` for claude (claude.md §7, §9): per entry of `versions`, what that
// release added and removed, read from the markers of claude-events.json.
import type { CatalogChange, CatalogVersionChanges } from '../types.js';
import { claudeCatalogEvents, claudeCatalogMeta } from './catalog.generated.js';
import { compareVersions, selectedClaudeRelease } from './releases.js';

const LISTS: Record<string, { added: string; removed: string }> = {
  payload_fields: { added: 'field_added', removed: 'field_removed' },
  output_fields: { added: 'field_added', removed: 'field_removed' },
  matcher_values: { added: 'matcher_value_added', removed: 'matcher_value_removed' },
};

/** Every change of the catalog, with the release that made it. */
function allChanges(): { version: string; change: CatalogChange }[] {
  const out: { version: string; change: CatalogChange }[] = [];
  const add = (
    version: string | null | undefined,
    kind: string,
    name: string,
    where: string[] = [],
    detail?: string,
  ) => {
    if (version === null || version === undefined) return;
    out.push({ version, change: { kind, name, in: where, ...(detail !== undefined ? { detail } : {}) } });
  };
  for (const e of claudeCatalogEvents()) {
    add(e.since, 'event_added', e.name);
    add(e.removed_in, 'event_removed', e.name);
    for (const [key, v] of Object.entries(e.field_since ?? {})) {
      const list = key.slice(0, key.indexOf('.'));
      add(v, LISTS[list]?.added ?? 'field_added', key.slice(list.length + 1), [e.name]);
    }
    for (const [key, v] of Object.entries(e.field_removed_in ?? {})) {
      const list = key.slice(0, key.indexOf('.'));
      add(v, LISTS[list]?.removed ?? 'field_removed', key.slice(list.length + 1), [e.name]);
    }
  }
  const meta = claudeCatalogMeta();
  for (const f of meta.common_payload_fields) add(f.since, 'field_added', f.name);
  for (const [key, v] of Object.entries(meta.field_since)) {
    const [list, name] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)];
    add(v, list === 'common_handler_fields' ? 'handler_field_added' : 'field_added', name);
  }
  for (const [t, h] of Object.entries(meta.handler_types)) {
    add(h.since, 'handler_type_added', t);
    for (const [f, v] of Object.entries(h.field_since ?? {})) add(v, 'handler_field_added', f, [t]);
  }
  for (const r of meta.version_rules) add(r.since, 'rule', r.id, [], r.rule);
  return out;
}

export function claudeReleaseChanges(): CatalogVersionChanges[] {
  const all = allChanges();
  const selected = selectedClaudeRelease().entry;
  const versions = claudeCatalogMeta().versions;
  return versions.map((v, i) => {
    const previous = i === 0 ? null : versions[i - 1]!.version;
    // An item older than the oldest entry belongs to no entry: it is in every release hookctl knows.
    const changes = all.filter((c) => compareVersions(c.version, v.version) === 0).map((c) => c.change);
    return {
      runtime: 'Claude Code',
      version: v.version,
      name: v.version,
      date: v.date,
      catalog: /upper bound/.test(v.changes) ? 'upper bound' : 'exact',
      previous,
      ...(v.version === selected ? { selected: true } : {}),
      changes,
    };
  });
}
