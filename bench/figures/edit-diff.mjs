// The `--dry-run` diff of an edit, in-process from the built chunk (issue 18): 3,144 changed
// lines took 5.9 s with the hand-written diff. The `diff` package's work is bounded
// (src/edit/unified-diff.ts, MAX_EDIT_LENGTH), beyond which one block replacement is written.
import { createRequire } from 'node:module';
import { join } from 'node:path';

export default {
  id: 'edit-diff',
  order: 60,
  runs: 5,
  async run(ctx) {
    // src/edit/unified-diff.ts is not an export of any built file: built here alone, as the
    // build bundles it (the `diff` package inlined).
    const { rolldown } = await import('rolldown');
    const bundle = await rolldown({
      cwd: ctx.root,
      input: join(ctx.root, 'src', 'edit', 'unified-diff.ts'),
      platform: 'node',
      tsconfig: join(ctx.root, 'tsconfig.json'),
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    });
    const out = join(ctx.work, 'edit-diff');
    await bundle.write({ dir: out, format: 'cjs', entryFileNames: 'unified-diff.cjs' });
    await bundle.close();
    const { unifiedDiff } = createRequire(import.meta.url)(join(out, 'unified-diff.cjs'));
    const lines = Array.from({ length: 3144 }, (_, i) => `key_${i} = "${i}"`);
    const cases = [
      ['all 3,144 lines changed', lines.map((l) => l.replace('"', '"x'))],
      ['every other line of 3,144 changed', lines.map((l, i) => (i % 2 ? l.replace('"', '"x') : l))],
    ];
    const rows = [];
    for (const [name, changed] of cases) {
      const before = lines.join('\n') + '\n';
      const after = changed.join('\n') + '\n';
      const ms = [];
      for (let i = 0; i < ctx.runsFor(this); i++) {
        const t = process.hrtime.bigint();
        const diff = unifiedDiff(before, after, { oldLabel: 'a', newLabel: 'b' });
        ms.push(Number(process.hrtime.bigint() - t) / 1e6);
        if (!diff.startsWith('--- a\n+++ b\n@@ ')) throw new Error('edit-diff: not a unified diff');
      }
      rows.push(
        ctx.statsRow(ms, {
          id: `edit-diff-${rows.length + 1}`,
          figure: `\`--dry-run\` diff, ${name}: time in-process`,
          unit: 'ms',
          target: { op: '<=', value: 1000 },
          env: 'in-process',
          detail: `${ms.length} run(s) in the bench process; hookctl's own bound (not SPEC): the hand-written diff took 5.9 s on the first case`,
        }),
      );
    }
    return rows;
  },
};
