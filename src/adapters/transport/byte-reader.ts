/**
 * Buffers incoming bytes and hands them out on request with a deadline, so a protocol can be
 * written as "read one byte within 1 s" (CHDU Lite: every answer and every handshake is bounded
 * by 1 s). A closed line fails the pending and every later read.
 */
export class ReadTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`no ${what} within ${ms} ms`);
    this.name = 'ReadTimeout';
  }
}

export class LineClosed extends Error {
  constructor(reason = 'line closed') {
    super(reason);
    this.name = 'LineClosed';
  }
}

export class ByteReader {
  private chunks: Uint8Array[] = [];
  private offset = 0;
  private waiter: (() => void) | undefined;
  private closedWith: Error | undefined;

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.wake();
  }

  /** Fails the pending read and all later ones until reset(). */
  fail(error: Error): void {
    this.closedWith = error;
    this.wake();
  }

  /** Drops buffered bytes and any failure (after reconnecting). */
  reset(): void {
    this.chunks = [];
    this.offset = 0;
    this.closedWith = undefined;
  }

  /** Drops buffered bytes (resynchronise after a protocol error). */
  discard(): void {
    this.chunks = [];
    this.offset = 0;
  }

  get buffered(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0) - this.offset;
  }

  async readByte(timeoutMs: number, what = 'answer'): Promise<number> {
    const [b] = await this.readBytes(1, timeoutMs, what);
    return b!;
  }

  /** Reads exactly `n` bytes, all within `timeoutMs` from the call (Infinity: wait for ever). */
  async readBytes(n: number, timeoutMs: number, what = 'answer'): Promise<Uint8Array> {
    const deadline = Date.now() + timeoutMs;
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      got += this.take(out, got);
      if (got === n) break;
      if (this.closedWith) throw this.closedWith;
      const left = deadline - Date.now();
      if (left <= 0) throw new ReadTimeout(what, timeoutMs);
      await this.wait(left);
    }
    return out;
  }

  private take(out: Uint8Array, at: number): number {
    let copied = 0;
    while (at + copied < out.length && this.chunks.length > 0) {
      const chunk = this.chunks[0]!;
      const n = Math.min(chunk.length - this.offset, out.length - at - copied);
      out.set(chunk.subarray(this.offset, this.offset + n), at + copied);
      copied += n;
      this.offset += n;
      if (this.offset === chunk.length) {
        this.chunks.shift();
        this.offset = 0;
      }
    }
    return copied;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (!Number.isFinite(ms)) {
        this.waiter = () => {
          this.waiter = undefined;
          resolve();
        };
        return;
      }
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve();
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve();
      };
    });
  }

  private wake(): void {
    this.waiter?.();
  }
}
