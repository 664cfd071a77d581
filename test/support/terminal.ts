// Runs the built CLI in a real terminal: a tmux session of a given width, detached, with a server
// of its own (own socket name and TMUX_TMPDIR, so nothing is shared with another tmux or left
// behind). Returns the screen's lines with wrapped lines joined (capture-pane -J): a row the
// terminal wrapped comes back longer than the width. A command that does not end by itself
// (`runs --follow`) is read once `until` holds of its screen, then the server is killed.
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { binPath, repoRoot } from './cli.js';
import { tempDir } from './temp.js';

export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let sessions = 0;
const END = '__HOOKCTL_DONE__';

const shQuote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;

export async function runInTerminal(
  args: string[],
  opts: {
    columns: number;
    rows?: number;
    env: Record<string, string>;
    cwd?: string;
    until?: (lines: string[]) => boolean;
  },
): Promise<string[]> {
  const socket = `hookctl-test-${process.pid}-${++sessions}`;
  const env = { ...opts.env, TERM: 'xterm-256color', TMUX_TMPDIR: tempDir('hookctl-tmux-') };
  const tmux = (...a: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...a], { env, encoding: 'utf8' });
  const command = [process.execPath, binPath, ...args].map(shQuote).join(' ');
  tmux(
    'new-session',
    '-d',
    '-s',
    't',
    '-x',
    String(opts.columns),
    '-y',
    String(opts.rows ?? 400),
    '-c',
    opts.cwd ?? repoRoot,
    `${command}; printf '%s' ${END}; sleep 60`,
  );
  try {
    for (let waited = 0; waited < 20_000; waited += 100) {
      const screen = tmux('capture-pane', '-p', '-J', '-t', 't');
      if (opts.until !== undefined) {
        const lines = screen.split('\n').map((l) => l.trimEnd());
        while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
        if (opts.until(lines)) return lines;
        if (screen.includes(END)) throw new Error(`hookctl ${args.join(' ')} ended before its screen was as awaited`);
      } else if (screen.includes(END)) {
        const lines = screen.split('\n').map((l) => l.trimEnd());
        const end = lines.findIndex((l) => l.includes(END));
        lines[end] = lines[end]!.replace(END, '');
        return lines.slice(0, end + 1).filter((l, i) => i < end || l !== '');
      }
      await sleep(100);
    }
    throw new Error(`hookctl ${args.join(' ')} did not finish in the terminal`);
  } finally {
    tmux('kill-server');
  }
}
