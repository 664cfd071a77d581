// Issue 24: a hook owns its CLAUDE_ENV_FILE, so it can make it huge or a link to an endless
// device. hookctl reads a bounded part of it, warns, and still prints the verdict.
import { describe, expect, it } from 'vitest';
import { cmd, group, sandbox } from './claude-support.js';

describe('CLAUDE_ENV_FILE is read within bounds', () => {
  it('a 300 MB env file: the verdict, a warning, at most 10,000 env_exports lines', async () => {
    const sb = sandbox();
    // 300 MB of `export A=1` lines; before, V8 ran out of memory (exit 134, no verdict).
    sb.settings({
      SessionStart: [
        group([cmd(`yes 'export A=1' | head -c 300000000 > "$CLAUDE_ENV_FILE"; echo '{"systemMessage":"done"}'`)]),
      ],
    });
    const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
    expect(r.code).toBe(0);
    expect(r.json.system_message).toBe('done');
    expect(r.json.env_exports.length).toBe(10_000);
    expect(r.json.env_exports[0]).toEqual({ hook: 'project:SessionStart:1.1', line: 'export A=1' });
    expect(r.stdout.length).toBeLessThan(2_000_000);
    expect(r.stderr).toContain('project:SessionStart:1.1: CLAUDE_ENV_FILE: it holds more than 1048576 bytes');
    expect(r.stderr).toMatch(/env_exports: \d+ more lines not reported/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it.each(['/dev/zero', '/dev/urandom'])(
    "an env file made a link to %s is not read; the other hook's lines are",
    async (dev) => {
      const sb = sandbox();
      sb.settings({
        SessionStart: [
          group([cmd(`ln -sf ${dev} "$CLAUDE_ENV_FILE"`), cmd(`echo 'export B=2' >> "$CLAUDE_ENV_FILE"`)]),
        ],
      });
      const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
      expect(r.code).toBe(0);
      expect(r.json.env_exports).toEqual([{ hook: 'project:SessionStart:1.2', line: 'export B=2' }]);
      expect(r.stderr).toContain('project:SessionStart:1.1: CLAUDE_ENV_FILE: it is not a regular file; not read');
    },
    60_000,
  );

  it('an env file made a FIFO no one writes to does not hang the dispatch', async () => {
    const sb = sandbox();
    sb.settings({ SessionStart: [group([cmd(`rm -f "$CLAUDE_ENV_FILE"; mkfifo "$CLAUDE_ENV_FILE"`)])] });
    const r = await sb.fire('SessionStart', { session_id: 's1', source: 'startup' });
    expect(r.code).toBe(0);
    expect(r.json.env_exports).toEqual([]);
    expect(r.stderr).toContain('CLAUDE_ENV_FILE: it is not a regular file; not read');
  }, 60_000);
});
