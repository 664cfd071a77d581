// `hooks replay` (replay.md §4.5): at least 200 replayed events per second of wall-clock time,
// start-up included, with one command hook on every PreToolUse that reads stdin and exits 0, over
// 1,000 or more events in 4 sessions. Shown as wall time per replayed event (≤ 5 ms = ≥ 200/s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SESSIONS = 4;
const CALLS = 130; // per session: SessionStart, a prompt, 130 × (PreToolUse, PostToolUse), Stop

function transcript(session, cwd) {
  const lines = [];
  let t = 0;
  const at = () => new Date(Date.UTC(2026, 7, 20, 9, 0, 0, t++ * 10)).toISOString();
  const env = { sessionId: session, cwd, isSidechain: false, userType: 'external', version: '2.1.240' };
  lines.push({ ...env, type: 'user', timestamp: at(), message: { role: 'user', content: 'run the checks' } });
  for (let i = 0; i < CALLS; i++) {
    const id = `toolu_${session.slice(0, 4)}_${i}`;
    const content = [{ type: 'tool_use', id, name: 'Bash', input: { command: `echo ${i}` } }];
    lines.push({ ...env, type: 'assistant', timestamp: at(), message: { role: 'assistant', content } });
    const result = [{ type: 'tool_result', tool_use_id: id, content: String(i) }];
    lines.push({ ...env, type: 'user', timestamp: at(), message: { role: 'user', content: result } });
  }
  const done = [{ type: 'text', text: 'all checks ran' }];
  lines.push({ ...env, type: 'assistant', timestamp: at(), message: { role: 'assistant', content: done } });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export default {
  id: 'replay',
  order: 75,
  runs: 5,
  async run(ctx) {
    const { dir } = await ctx.fixtures.generateOnce(join(ctx.work, `replay-${SESSIONS}x${CALLS}`), async (d) => {
      const ws = join(d, 'workspace');
      mkdirSync(join(ws, '.claude'), { recursive: true });
      const hooks = { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'cat >/dev/null' }] }] };
      writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks }) + '\n');
      mkdirSync(join(d, 'transcripts'), { recursive: true });
      for (let s = 0; s < SESSIONS; s++) {
        const id = `${String(s).repeat(8)}-0000-4000-8000-00000000000${s}`;
        writeFileSync(join(d, 'transcripts', `${id}.jsonl`), transcript(id, ws));
      }
    });
    const env = ctx.fixtures.homesEnv(dir);
    const cmd = ctx.hookctl(
      'hooks',
      'replay',
      join(dir, 'transcripts'),
      '--workspace',
      join(dir, 'workspace'),
      '--format',
      'json',
      '--no-progress',
    );
    // The command does its real work first, so a broken one never passes as fast.
    const doc = JSON.parse((await ctx.run(cmd, { env, capture: true })).stdout);
    const events = SESSIONS * (3 + 2 * CALLS);
    if (doc.summary.replayed !== events || doc.summary.hook_runs !== SESSIONS * CALLS)
      throw new Error(
        `replay: expected ${events} events and ${SESSIONS * CALLS} hook runs, got ${doc.summary.replayed} and ${doc.summary.hook_runs}`,
      );
    const times = [];
    for (let i = 0; i < ctx.runsFor(this) + ctx.warmup; i++) {
      const r = await ctx.run(cmd, { env });
      if (i >= ctx.warmup) times.push(r.ms / events);
    }
    const perSecond = (ms) => Math.round(1000 / ms);
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    return [
      ctx.statsRow(times, {
        id: 'replay-per-event',
        figure: `\`hooks replay\`: wall time per replayed event (${events} events in ${SESSIONS} sessions, one \`cat\` hook on every PreToolUse, start-up included)`,
        unit: 'ms',
        target: { op: '<=', value: 5 },
        detail: `${perSecond(median)} events/s (median; target ≥ 200 events/s); ${SESSIONS * CALLS} hook processes per run`,
      }),
    ];
  },
};
