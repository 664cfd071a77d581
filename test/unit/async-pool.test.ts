import { describe, expect, it } from 'vitest';
import { ASYNC_QUEUE_CAPACITY, ASYNC_WORKERS, AsyncPool, type PoolJob } from '../../src/exec/async-pool.js';
import { until } from '../support/until.js';

interface TestJob extends PoolJob<string> {
  id: string;
  finish: (value?: string) => void;
  started: boolean;
  signal?: AbortSignal;
}

/** A job that runs until finish() is called, or, when abortable, until its signal aborts. */
function job(id: string, { abortable = true } = {}): TestJob {
  let resolveRun: (v: string) => void = () => {};
  const j: TestJob = {
    id,
    started: false,
    finish: (value = id) => resolveRun(value),
    run(signal) {
      j.started = true;
      j.signal = signal;
      return new Promise<string>((resolve) => {
        resolveRun = resolve;
        if (abortable) signal.addEventListener('abort', () => resolve(`${id}:aborted`));
      });
    },
  };
  return j;
}

function pool(opts: { workers?: number; queueCapacity?: number; cancelGraceMs?: number } = {}) {
  const settled: string[] = [];
  const p = new AsyncPool<string, TestJob>({
    ...opts,
    onSettled: (_job, value) => {
      settled.push(value);
    },
    onRunError: (j) => {
      settled.push(`${j.id}:threw`);
    },
  });
  return { p, settled };
}

/**
 * Resolves once every promise callback already queued has run (setImmediate comes after the
 * microtask queue is empty): for checking that something did *not* happen, where there is no
 * condition to wait for. Not a wait on time.
 */
const afterQueuedCallbacks = () => new Promise((r) => setImmediate(r));

describe('AsyncPool', () => {
  it('defaults to 4 workers and a queue of 64', () => {
    expect(ASYNC_WORKERS).toBe(4);
    expect(ASYNC_QUEUE_CAPACITY).toBe(64);
    const { p } = pool();
    const jobs = Array.from({ length: 69 }, (_, i) => job(`j${i}`));
    const accepted = jobs.map((j) => p.submit(j));
    expect(accepted.slice(0, 68).every(Boolean)).toBe(true);
    expect(accepted[68]).toBe(false);
    expect(p.runningCount).toBe(4);
    expect(p.queuedCount).toBe(64);
    for (const j of jobs) j.finish();
  });

  it('refuses a job only when every worker is busy and the queue is full', async () => {
    const { p, settled } = pool({ workers: 2, queueCapacity: 1 });
    const [a, b, c, d] = [job('a'), job('b'), job('c'), job('d')];
    expect(p.submit(a)).toBe(true);
    expect(p.submit(b)).toBe(true);
    expect(p.submit(c)).toBe(true); // queued
    expect(c.started).toBe(false);
    expect(p.submit(d)).toBe(false);
    a.finish();
    await until('a freed worker to take the queued job', () => c.started);
    expect(p.submit(d)).toBe(true); // and the queue has room again
    b.finish();
    c.finish();
    await until('the last job to start', () => d.started);
    d.finish();
    const r = await p.drain(1000);
    expect(r).toEqual({ timedOut: false, dropped: [], abandoned: [], errors: [] });
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs queued jobs in submission order', async () => {
    const { p } = pool({ workers: 1, queueCapacity: 5 });
    const order: string[] = [];
    const jobs = ['1', '2', '3'].map((id) => ({
      id,
      run: async () => {
        order.push(id);
        return id;
      },
    }));
    for (const j of jobs) p.submit(j as unknown as TestJob);
    await p.drain(1000);
    expect(order).toEqual(['1', '2', '3']);
  });

  it('on drain timeout aborts running jobs and drops queued ones', async () => {
    const { p, settled } = pool({ workers: 1, queueCapacity: 2, cancelGraceMs: 1000 });
    const [a, b, c] = [job('a'), job('b'), job('c')];
    p.submit(a);
    p.submit(b);
    p.submit(c);
    const r = await p.drain(30);
    expect(r.timedOut).toBe(true);
    expect(a.signal?.aborted).toBe(true);
    expect(settled).toEqual(['a:aborted']); // the aborted job reported through onSettled
    expect(r.dropped.map((j) => j.id)).toEqual(['b', 'c']);
    expect(r.abandoned).toEqual([]);
    expect(b.started).toBe(false);
    expect(p.submit(job('late'))).toBe(false); // a drained pool takes nothing more
  });

  it('abandons a job that ignores the abort, and ignores its late result', async () => {
    const { p, settled } = pool({ workers: 2, cancelGraceMs: 20 });
    const stubborn = job('stubborn', { abortable: false });
    const polite = job('polite');
    p.submit(stubborn);
    p.submit(polite);
    const r = await p.drain(20);
    expect(r.abandoned.map((x) => x.job.id)).toEqual(['stubborn']);
    expect(settled).toEqual(['polite:aborted']);
    stubborn.finish();
    await afterQueuedCallbacks();
    expect(settled).toEqual(['polite:aborted']);
  });

  it('reports a job that throws, and collects errors of onSettled', async () => {
    const errors: string[] = [];
    const p = new AsyncPool<string, TestJob>({
      onSettled: () => {
        throw new Error('disk full');
      },
      onRunError: (j) => {
        errors.push(j.id);
      },
    });
    p.submit({ id: 'boom', run: () => Promise.reject(new Error('x')) } as unknown as TestJob);
    const ok = job('ok');
    p.submit(ok);
    ok.finish();
    const r = await p.drain(1000);
    expect(errors).toEqual(['boom']);
    expect(r.errors.map((e) => (e as Error).message)).toEqual(['disk full']);
  });

  it('drains an idle pool at once', async () => {
    const { p } = pool();
    const started = Date.now();
    expect((await p.drain(5000)).timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
