// The async hook queue (SPEC §3.2): a fixed number of workers and a bounded queue. A job
// submitted while every worker is busy and the queue is full is refused (the caller records it
// `dropped`). drain() waits for the queue and the running jobs for a bounded time; then it aborts
// the running jobs (each holds an AbortSignal its executor request carries, so the subprocess is
// killed), gives them a short grace to settle, and hands back the ones still queued (dropped)
// and the ones that never settled (abandoned), so the caller records each exactly once.

export const ASYNC_WORKERS = 4;
export const ASYNC_QUEUE_CAPACITY = 64;
export const DRAIN_TIMEOUT_MS = 10_000;
/** After an abort, how long a running job may take to settle (the kill ladder is 250 ms). */
export const CANCEL_GRACE_MS = 1_000;

export interface PoolJob<T> {
  /** Does the work. `signal` aborts when drain gives up waiting; run should then end soon. */
  run(signal: AbortSignal): Promise<T>;
}

export interface AsyncPoolOptions<T, J extends PoolJob<T>> {
  workers?: number;
  queueCapacity?: number;
  cancelGraceMs?: number;
  /** Called with each job's result as it settles (awaited before the worker takes the next job). */
  onSettled: (job: J, value: T) => void | Promise<void>;
  /** Called when run() rejects (a job should not; this keeps one that does from going unseen). */
  onRunError: (job: J, error: unknown) => void | Promise<void>;
}

export interface DrainResult<J> {
  /** The drain timeout expired before the pool went idle. */
  timedOut: boolean;
  /** Still queued at expiry: never started. */
  dropped: J[];
  /** Running at expiry and still not settled after the abort grace; their results are ignored. */
  abandoned: { job: J; startedAt: number }[];
  /** Errors thrown by onSettled/onRunError (e.g. a record that could not be written). */
  errors: unknown[];
}

interface Running<J> {
  job: J;
  controller: AbortController;
  startedAt: number;
  /** run() has returned; its result is being handed over. */
  settled: boolean;
  abandoned: boolean;
  done: Promise<void>;
}

export class AsyncPool<T, J extends PoolJob<T> = PoolJob<T>> {
  private readonly workers: number;
  private readonly capacity: number;
  private readonly cancelGraceMs: number;
  private readonly queue: J[] = [];
  private readonly running = new Set<Running<J>>();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly errors: unknown[] = [];
  private closed = false;

  constructor(private readonly opts: AsyncPoolOptions<T, J>) {
    this.workers = Math.max(1, opts.workers ?? ASYNC_WORKERS);
    this.capacity = Math.max(0, opts.queueCapacity ?? ASYNC_QUEUE_CAPACITY);
    this.cancelGraceMs = Math.max(0, opts.cancelGraceMs ?? CANCEL_GRACE_MS);
  }

  get runningCount(): number {
    return this.running.size;
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  /** Starts the job on a free worker, else queues it; false when both are full (or drained). */
  submit(job: J): boolean {
    if (this.closed) return false;
    if (this.running.size < this.workers) {
      this.start(job);
      return true;
    }
    if (this.queue.length < this.capacity) {
      this.queue.push(job);
      return true;
    }
    return false;
  }

  /** Waits for every job, at most `timeoutMs`; then aborts, drops and abandons as described above. */
  async drain(timeoutMs: number = DRAIN_TIMEOUT_MS): Promise<DrainResult<J>> {
    const idle = await raceTimeout(this.whenIdle(), timeoutMs);
    if (idle) {
      this.closed = true;
      return { timedOut: false, dropped: [], abandoned: [], errors: this.errors.splice(0) };
    }
    this.closed = true;
    const dropped = this.queue.splice(0);
    const running = [...this.running];
    for (const r of running) r.controller.abort();
    await raceTimeout(Promise.all(running.map((r) => r.done)), this.cancelGraceMs);
    const abandoned: { job: J; startedAt: number }[] = [];
    const handingOver: Promise<void>[] = [];
    for (const r of running) {
      if (!this.running.has(r)) continue;
      if (r.settled)
        handingOver.push(r.done); // its record is being written: let it finish
      else {
        r.abandoned = true;
        this.running.delete(r);
        abandoned.push({ job: r.job, startedAt: r.startedAt });
      }
    }
    await Promise.all(handingOver);
    return { timedOut: true, dropped, abandoned, errors: this.errors.splice(0) };
  }

  private start(job: J): void {
    const entry: Running<J> = {
      job,
      controller: new AbortController(),
      startedAt: Date.now(),
      settled: false,
      abandoned: false,
      done: Promise.resolve(),
    };
    this.running.add(entry);
    entry.done = this.execute(entry).finally(() => this.finish(entry));
  }

  private async execute(entry: Running<J>): Promise<void> {
    let value: T;
    try {
      value = await entry.job.run(entry.controller.signal);
    } catch (error) {
      entry.settled = true;
      if (!entry.abandoned) await this.report(() => this.opts.onRunError(entry.job, error));
      return;
    }
    entry.settled = true;
    if (!entry.abandoned) await this.report(() => this.opts.onSettled(entry.job, value));
  }

  private async report(call: () => void | Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.errors.push(error);
    }
  }

  private finish(entry: Running<J>): void {
    this.running.delete(entry);
    const next = this.closed ? undefined : this.queue.shift();
    if (next !== undefined) this.start(next);
    if (this.running.size === 0 && this.queue.length === 0) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private whenIdle(): Promise<void> {
    if (this.running.size === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}

/** True when `promise` settles first; the timer never outlives the race. */
async function raceTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}
