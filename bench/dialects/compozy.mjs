// The compozy entry of the dispatch figure: 200 sync hooks on prompt.post_assemble in
// $COMPOZY_HOME/config.toml, each running `true` (exec'd directly, found on PATH).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default {
  name: 'compozy',
  order: 1,
  describe: (count) => `${count} config.toml hooks running \`true\`; baseline spawns \`true\``,
  async setup(ctx, count) {
    const { dir } = await ctx.fixtures.dispatchHome(ctx.work, count);
    const env = ctx.fixtures.homesEnv(dir);
    rmSync(join(env.COMPOZY_HOME, 'sessions'), { recursive: true, force: true });
    const payloadFile = join(dir, 'payload.json');
    writeFileSync(
      payloadFile,
      JSON.stringify({ prompt: 'benchmark', input_class: 'user', session_id: 'bench-dispatch' }) + '\n',
    );
    return {
      env,
      payloadFile,
      fireArgs: ['prompt.post_assemble', '--payload', payloadFile, '--workspace', join(dir, 'workspace')],
      baselineCommand: ['true'],
      check(result, n) {
        const applied = result.runs?.filter((r) => r.outcome === 'applied').length;
        if (applied !== n)
          throw new Error(`dispatch (compozy): expected ${n} applied runs, got ${applied} (verdict ${result.verdict})`);
      },
    };
  },
};
