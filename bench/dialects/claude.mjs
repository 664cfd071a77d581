// The claude entry of the dispatch figure: 200 UserPromptSubmit command hooks in
// ~/.claude/settings.json (shell form, `true <n>`). claude hooks run in parallel (claude.md §5.1),
// so the baseline spawns the same 200 `/bin/sh -c` commands at once, and there is no per-hook
// overhead row (the hooks do not run one after another).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default {
  name: 'claude',
  order: 3,
  parallel: true,
  describe: (count) => `${count} parallel claude command hooks (\`sh -c true\`); baseline spawns them all at once`,
  async setup(ctx, count) {
    const { dir } = await ctx.fixtures.claudeDispatchHome(ctx.work, count);
    const env = ctx.fixtures.homesEnv(dir);
    rmSync(join(env.HOOKCTL_STATE_DIR, 'claude'), { recursive: true, force: true });
    const payloadFile = join(dir, 'payload.json');
    writeFileSync(payloadFile, JSON.stringify({ prompt: 'benchmark', session_id: 'bench-claude-dispatch' }) + '\n');
    return {
      env,
      payloadFile,
      fireArgs: [
        'UserPromptSubmit',
        '--dialect',
        'claude',
        '--payload',
        payloadFile,
        '--workspace',
        join(dir, 'workspace'),
      ],
      baselineFlags: ['--parallel'],
      baselineCommand: ['/bin/sh', '-c', 'true 000'],
      check(result, n) {
        const applied = result.runs?.filter((r) => r.outcome === 'applied').length;
        if (result.dialect !== 'claude' || applied !== n)
          throw new Error(
            `dispatch (claude): expected ${n} applied claude runs, got ${applied} (dialect ${result.dialect}, verdict ${result.verdict})`,
          );
      },
    };
  },
};
