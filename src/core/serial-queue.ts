/**
 * Runs async tasks one at a time in call order. A block device takes one command at a time and a
 * journal record must occupy consecutive blocks, so writers queue instead of interleaving.
 * A failed task does not stop the queue.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
