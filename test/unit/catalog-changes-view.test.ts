// `hooks events --changes`, human output: one heading per version, then + / - / ~ lines.
import { describe, expect, it } from 'vitest';
import { makeColour } from '../../src/cli/colour.js';
import { compozyReleaseChanges } from '../../src/dialects/compozy/release-changes.js';
import { resolveCompozyRelease } from '../../src/dialects/compozy/releases.js';
import { renderCatalogChanges } from '../../src/views/catalog-changes.js';

describe('renderCatalogChanges', () => {
  const text = renderCatalogChanges(compozyReleaseChanges(resolveCompozyRelease()), makeColour(false));
  const lines = text.split('\n');
  const block = (heading: string) => {
    const start = lines.findIndex((l) => l.startsWith(heading));
    const end = lines.findIndex((l, i) => i > start && !l.startsWith(' '));
    return lines.slice(start, end === -1 ? undefined : end);
  };

  it('the oldest release, an unknown catalog and the retirement', () => {
    expect(block('CompozyOS v0.3.0-beta.19')).toEqual([
      'CompozyOS v0.3.0-beta.19  date 2026-08-21, catalog exact',
      '  the oldest version hookctl knows',
    ]);
    expect(block('CompozyOS v0.3.0-beta.21')).toEqual([
      'CompozyOS v0.3.0-beta.21  date <=2026-08-28, catalog unknown',
      '  catalog unknown: behaves as v0.3.0-beta.20, the nearest earlier version whose catalog is known',
    ]);
    const retire = block('CompozyOS retire-2026-09-27');
    expect(retire[0]).toBe('CompozyOS retire-2026-09-27 (v0.3.0)  date 2026-09-27, catalog partial');
    expect(retire).toContain('  - family sandbox');
    expect(retire).toContain('  - event sandbox.prepare (sandbox)');
    expect(retire).toContain('  - matcher field participation_channel (coordinator, task, task.run, loop, spawn)');
  });

  it('marks the selected release; long lists are shortened', () => {
    const main = block('CompozyOS main-2026-10');
    expect(main[0]).toMatch(/catalog newest {2}← selected$/);
    expect(main).toContain('  ~ event context.pre_compact (context): deny: stop -> null, deny_field: deny -> null');
    const pre = block('CompozyOS pre-retire');
    expect(pre.find((l) => l.includes('profile_id'))).toMatch(
      /^ {2}\+ payload field profile_id \(52: SessionPreCreatePayload, .* and 47 more\)$/,
    );
  });

  it('the snapshot line outside the release order comes last', () => {
    const side = block('CompozyOS call-branch');
    expect(side[1]).toBe('  a snapshot line outside the release order: not selectable; only it has:');
    expect(side).toContain('  + event call.created (call)');
  });
});
