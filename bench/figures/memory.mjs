// Peak RSS of `hooks list` at 10,000 declarations (< 150 MB) and of `hooks fire` while a hook
// writes 1 GiB to stdout (< 100 MB).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogs } from './catalog.mjs';

export default {
  id: 'memory',
  order: 50,
  runs: 3,
  async run(ctx) {
    const { big } = await catalogs(ctx);
    const gib = 1024 ** 3;
    const { dir } = await ctx.fixtures.floodHome(ctx.work, gib);
    const floodEnv = ctx.fixtures.homesEnv(dir);
    rmSync(join(floodEnv.COMPOZY_HOME, 'sessions'), { recursive: true, force: true });
    const payloadFile = join(dir, 'payload.json');
    writeFileSync(payloadFile, JSON.stringify({ prompt: 'benchmark', session_id: 'bench-flood' }) + '\n');
    const n = ctx.runsFor(this);
    const listMb = [];
    const fireMb = [];
    for (let i = 0; i < n; i++) {
      listMb.push((await ctx.peakRss({ cmd: ctx.hookctl('hooks', 'list', ...big.flags), env: big.env })).mb);
      const fire = await ctx.peakRss({
        cmd: ctx.hookctl(
          'hooks',
          'fire',
          'prompt.post_assemble',
          '--payload',
          payloadFile,
          '-o',
          'json',
          '--workspace',
          join(dir, 'workspace'),
        ),
        env: floodEnv,
        capture: true,
      });
      const bytes = JSON.parse(fire.stdout).runs?.[0]?.stdout_bytes;
      if (bytes !== gib) throw new Error(`memory: the flood hook's stdout_bytes is ${bytes}, expected ${gib}`);
      fireMb.push(fire.mb);
    }
    return [
      ctx.statsRow(listMb, {
        id: 'memory-list',
        figure: 'peak RSS: `hooks list`, 10,000 declarations',
        unit: 'MB',
        target: { op: '<', value: 150 },
        detail: ctx.rssDetail(listMb),
      }),
      ctx.statsRow(fireMb, {
        id: 'memory-fire',
        figure: 'peak RSS: `hooks fire` while a hook writes 1 GiB to stdout',
        unit: 'MB',
        target: { op: '<', value: 100 },
        detail: ctx.rssDetail(fireMb),
      }),
    ];
  },
};
