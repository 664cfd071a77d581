// Hook process groups outlive a hookctl killed by SIGKILL: no handler of hookctl runs then, so
// the signal handlers of subprocess.ts that end the groups on SIGINT/SIGTERM/SIGHUP and at exit
// cannot. A supervisor can: one small /bin/sh per hookctl process that runs hooks, in a session
// of its own (a terminal's Ctrl-C does not reach it), reading `+ PGID` and `- PGID` lines on a
// pipe from hookctl. When the pipe closes — hookctl gone, whatever ended it — it sends SIGKILL to
// every group still listed, and exits. Started with the first hook, never on a read command.
import { spawn, type ChildProcess } from 'node:child_process';

// POSIX sh, no subprocess of its own: `g` is the list of groups, space-separated and padded.
const SCRIPT = [
  'g=" "',
  'while read -r op id; do',
  '  case $op in',
  '    +) g="$g$id " ;;',
  '    -) case $g in *" $id "*) g="${g%%" $id "*} ${g#*" $id "}" ;; esac ;;',
  '  esac',
  'done',
  'for id in $g; do kill -KILL -"$id" 2>/dev/null; done',
].join('\n');

let supervisor: ChildProcess | null | undefined;

/** Starts the supervisor once per process (before the first hook's spawn); null when it cannot run. */
export function startSupervisor(): ChildProcess | null {
  if (supervisor !== undefined) return supervisor;
  try {
    const child = spawn('/bin/sh', ['-c', SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {
      supervisor = null; // no /bin/sh: the groups are still ended by the handlers, not after SIGKILL
    });
    child.stdin!.on('error', () => {});
    // Neither the process nor its pipe keeps hookctl running.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    supervisor = child;
  } catch {
    supervisor = null;
  }
  return supervisor;
}

// Ended groups are told with the next start, in the same write: one write and one wake-up of
// the supervisor per hook, not two (a dispatch of 200 hooks). The few not yet told when hookctl
// dies had ended moments before, and a group id is a pid: one so new is not given out again.
let released = '';

/** A hook's group has started: the supervisor ends it if hookctl dies first. */
export function superviseGroup(pgid: number): void {
  const lines = `${released}+ ${pgid}\n`;
  released = '';
  startSupervisor()?.stdin?.write(lines);
}

/** A hook's group has ended (hookctl signalled what was left of it): no longer the supervisor's. */
export function releaseGroup(pgid: number): void {
  if (supervisor) released += `- ${pgid}\n`;
}
