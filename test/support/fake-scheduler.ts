import type { Cancel, Scheduler } from '../../src/core/ports/scheduler.js';

/**
 * A Scheduler tests drive by hand: nothing runs until `advance()` moves its time past a task's due
 * time. `pending()` shows what is scheduled (the delays a test asserts on, never real time).
 */
export class FakeScheduler implements Scheduler {
  #now = 0;
  #seq = 0;
  #tasks: Array<{ id: number; due: number; delay: number; task: () => void }> = [];

  after(ms: number, task: () => void): Cancel {
    const id = ++this.#seq;
    this.#tasks.push({ id, due: this.#now + Math.max(0, ms), delay: ms, task });
    return () => {
      this.#tasks = this.#tasks.filter((t) => t.id !== id);
    };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  /** The delays of the tasks still scheduled, in due order. */
  pending(): number[] {
    return [...this.#tasks].sort((a, b) => a.due - b.due).map((t) => t.delay);
  }

  /** Moves time forward by `ms` and runs every task due by then, in order. */
  advance(ms: number): void {
    this.#now += ms;
    for (;;) {
      const due = this.#tasks
        .filter((t) => t.due <= this.#now)
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) return;
      this.#tasks = this.#tasks.filter((t) => t.id !== due.id);
      due.task();
    }
  }
}
