/** Cancels a scheduled task; calling it after the task ran does nothing. */
export type Cancel = () => void;

/**
 * Time-based background work (the offline sender's retries, report print pacing). The system
 * adapter uses timers that never keep the process alive; tests use a fake one they advance by
 * hand, so no test waits for real time to pass.
 */
export interface Scheduler {
  /** Runs `task` once after `ms` milliseconds (0 = as soon as possible, never synchronously). */
  after(ms: number, task: () => void): Cancel;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}
