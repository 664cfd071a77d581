// The cosh entry of the dispatch figure: 200 PreToolUse hooks in $COSH_HOME/config.toml, each
// `true`. cosh runs a hook's command as `/bin/sh -c <command>`, so the baseline spawns exactly that.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default {
  name: 'cosh',
  order: 2,
  describe: (count) => `${count} cosh config hooks \`true\`; baseline spawns \`/bin/sh -c true\``,
  async setup(ctx, count) {
    const { dir } = await ctx.fixtures.coshDispatchHome(ctx.work, count);
    const env = ctx.fixtures.homesEnv(dir);
    rmSync(join(env.COSH_HOME, 'sessions'), { recursive: true, force: true });
    const payloadFile = join(dir, 'payload.json');
    writeFileSync(
      payloadFile,
      JSON.stringify({ session_id: 'bench-dispatch', tool_name: 'shell', tool_input: { command: 'ls' } }) + '\n',
    );
    return {
      env,
      payloadFile,
      fireArgs: ['PreToolUse', '--payload', payloadFile, '--workspace', join(dir, 'workspace')],
      baselineCommand: ['/bin/sh', '-c', 'true'],
      check(result, n) {
        const applied = result.runs?.filter((r) => r.outcome === 'applied').length;
        if (result.dialect !== 'cosh' || applied !== n)
          throw new Error(
            `dispatch (cosh): expected ${n} applied cosh runs, got ${applied} (verdict ${result.verdict})`,
          );
      },
    };
  },
};
