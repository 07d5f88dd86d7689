import type { Cancel, Scheduler } from '../../core/ports/scheduler.js';

/** The Scheduler on Node timers; `unref`ed, so pending background work never keeps the process up. */
export const timerScheduler: Scheduler = {
  after(ms: number, task: () => void): Cancel {
    const timer = setTimeout(task, Math.max(0, ms));
    timer.unref();
    return () => clearTimeout(timer);
  },
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  },
};
