// `hooks events --changes` (SPEC §10), human output: for each version of a runtime's event
// catalog, oldest first, what it added (+), removed (-) or changed (~) against the one before,
// and when its catalog is unknown, which version it behaves as. JSON prints the data as is.
import type { Colour } from '../cli/colour.js';
import type { CatalogVersionChanges } from '../dialects/types.js';

const SIGN: Record<string, string> = { added: '+', removed: '-', changed: '~' };

/** `matcher_field_added` → `matcher field`, `+`. */
function describeKind(kind: string): { what: string; sign: string } {
  const m = /^(.*)_(added|removed|changed)$/.exec(kind);
  if (!m) return { what: kind.replaceAll('_', ' '), sign: '*' };
  return { what: m[1]!.replaceAll('_', ' '), sign: SIGN[m[2]!]! };
}

/** At most `max` names, then how many more (the JSON output keeps them all). */
function someOf(names: readonly string[], max = 5): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

export function renderCatalogChanges(versions: readonly CatalogVersionChanges[], colour: Colour): string {
  const lines: string[] = [];
  for (const v of versions) {
    const title = `${v.runtime} ${v.version}${v.name !== v.version ? ` (${v.name})` : ''}`;
    const facts = [v.date ? `date ${v.date}` : undefined, `catalog ${v.catalog}`].filter(Boolean).join(', ');
    const mark = v.selected ? `  ${colour.paint('ok', '← selected')}` : '';
    lines.push(`${colour.paint('bold', title)}  ${colour.paint('dim', facts)}${mark}`);
    if (v.outside_release_order) {
      lines.push('  a snapshot line outside the release order: not selectable; only it has:');
    } else if (v.uses !== undefined) {
      lines.push(`  catalog unknown: behaves as ${v.uses}, the nearest earlier version whose catalog is known`);
    } else if (v.previous === null) {
      lines.push('  the oldest version hookctl knows');
    } else if (v.changes.length === 0) {
      lines.push(`  no change from ${v.previous}`);
    }
    for (const c of v.changes) {
      const { what, sign } = describeKind(c.kind);
      const where = c.in.length === 0 ? '' : ` (${c.in.length > 5 ? `${c.in.length}: ` : ''}${someOf(c.in)})`;
      const detail = c.detail ? `: ${c.detail}` : '';
      lines.push(`  ${sign} ${what} ${c.name}${where}${detail}`);
    }
  }
  return lines.join('\n');
}
