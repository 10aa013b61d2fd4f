import type { FastifyInstance } from 'fastify';

/** A background job: what it is called in reports, how often it runs, and its work. */
export interface Job {
  name: string;
  everyMs: number;
  /** Runs once as soon as the app is ready, then every `everyMs` (the retention job); otherwise first after `everyMs`. */
  runAtReady?: boolean;
  run: () => Promise<void>;
}

/**
 * The one place background jobs are timed (docs/ARCHITECTURE.md, "Where to change what"): jobs
 * added before or after `ready` run from `ready` to `close` (or `stop`, which main.ts calls first on
 * SIGTERM). A run never overlaps the one before it; a failure is reported, never thrown.
 */
export interface Scheduler {
  add(job: Job): void;
  stop(): void;
}

export function createScheduler(app: FastifyInstance, onError: (error: unknown, job: string) => void): Scheduler {
  const jobs: Job[] = [];
  const timers: NodeJS.Timeout[] = [];
  let started = false;
  let stopped = false;
  const start = (job: Job) => {
    let running = false;
    const tick = async () => {
      if (running || stopped) return;
      running = true;
      try {
        await job.run();
      } catch (error) {
        onError(error, job.name);
      } finally {
        running = false;
      }
    };
    if (job.runAtReady) void tick();
    const timer = setInterval(() => void tick(), job.everyMs);
    timer.unref();
    timers.push(timer);
  };
  const stop = () => {
    stopped = true;
    for (const timer of timers.splice(0)) clearInterval(timer);
  };
  app.addHook('onReady', async () => {
    started = true;
    for (const job of jobs) start(job);
  });
  app.addHook('onClose', async () => stop());
  return {
    add(job) {
      jobs.push(job);
      if (started && !stopped) start(job);
    },
    stop,
  };
}
