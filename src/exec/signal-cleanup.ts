// Synchronous clean-up that must also run when hookctl is stopped by a signal (issue 24: an
// interrupted claude dispatch left its temporary env folder behind). A process that dies by a
// signal runs no `finally` and no 'exit' listener, so the clean-up listens for the stop signals
// itself, and then lets the process die by the same signal as it would have.
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs `clean` if a stop signal arrives before the returned function is called (which removes it). */
export function cleanUpOnSignal(clean: () => void): () => void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  const remove = () => {
    for (const [sig, handler] of handlers) process.removeListener(sig, handler);
    handlers.clear();
  };
  for (const sig of STOP_SIGNALS) {
    const handler = () => {
      remove();
      try {
        clean();
      } catch {
        // best effort: the process is going away
      }
      // The other listeners (the hook groups' killer) re-raise once they are gone; the last one out does.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    handlers.set(sig, handler);
    process.on(sig, handler);
  }
  return remove;
}
