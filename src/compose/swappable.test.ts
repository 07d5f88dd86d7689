import { describe, expect, it } from 'vitest';
import { Swappable } from './swappable.js';

/** An adapter whose calls end only when the test says so, and which records its life. */
class Gate {
  readonly events: string[];
  readonly #pending: Array<() => void> = [];
  constructor(
    readonly name: string,
    events: string[],
  ) {
    this.events = events;
  }
  call(what: string): Promise<string> {
    this.events.push(`${this.name} start ${what}`);
    return new Promise((resolve) =>
      this.#pending.push(() => {
        this.events.push(`${this.name} end ${what}`);
        resolve(`${this.name}:${what}`);
      }),
    );
  }
  finishAll(): void {
    for (const p of this.#pending.splice(0)) p();
  }
  async close(): Promise<void> {
    this.events.push(`${this.name} closed`);
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('Swappable: an adapter replaced between requests (ADR 1003)', () => {
  it('a call in flight ends on the old adapter, which is closed only after it', async () => {
    const events: string[] = [];
    const a = new Gate('A', events);
    const b = new Gate('B', events);
    const holder = new Swappable(a);
    const inFlight = holder.use((x) => x.call('print-1'));
    await settle();
    holder.swap(b);
    expect(holder.current).toBe(b);
    await settle();
    expect(events).toEqual(['A start print-1']);
    a.finishAll();
    expect(await inFlight).toBe('A:print-1');
    await settle();
    expect(events).toEqual(['A start print-1', 'A end print-1', 'A closed']);
  });

  it('a call after the swap goes to the new adapter, once the old one has let go', async () => {
    const events: string[] = [];
    const a = new Gate('A', events);
    const b = new Gate('B', events);
    const holder = new Swappable(a);
    const first = holder.use((x) => x.call('1'));
    await settle();
    holder.swap(b);
    const second = holder.use((x) => x.call('2'));
    await settle();
    // B is not touched while A still works (one connection to a device at a time).
    expect(events).toEqual(['A start 1']);
    a.finishAll();
    await first;
    await settle();
    b.finishAll();
    await settle();
    b.finishAll();
    expect(await second).toBe('B:2');
    expect(events).toEqual(['A start 1', 'A end 1', 'A closed', 'B start 2', 'B end 2']);
  });

  it('close waits for work in flight, then closes the adapter in force', async () => {
    const events: string[] = [];
    const a = new Gate('A', events);
    const holder = new Swappable(a);
    const work = holder.use((x) => x.call('1'));
    await settle();
    const closing = holder.close();
    await settle();
    expect(events).toEqual(['A start 1']);
    a.finishAll();
    await work;
    await closing;
    expect(events).toEqual(['A start 1', 'A end 1', 'A closed']);
    expect(() => holder.swap(new Gate('B', events))).toThrow();
  });

  it('peek answers at once from an adapter swapped out while it still works, and never waits for it', async () => {
    const events: string[] = [];
    const a = new Gate('A', events);
    const b = new Gate('B', events);
    const holder = new Swappable(a);
    const job = holder.use((x) => x.call('job'));
    await settle();
    holder.swap(b);
    // While A still prints, a status-like call goes to A at once (use() would wait for A).
    expect(await holder.peek(async (x, retiring) => `${x.name} retiring=${retiring}`)).toBe(
      'A retiring=true',
    );
    a.finishAll();
    await job;
    await settle();
    expect(events).toContain('A closed');
    expect(await holder.peek(async (x, retiring) => `${x.name} retiring=${retiring}`)).toBe(
      'B retiring=false',
    );
  });
});

describe('Swappable without exclusive (the SFS connection)', () => {
  it('a call after the swap starts on the new adapter while the old one is still busy', async () => {
    const events: string[] = [];
    const a = new Gate('A', events);
    const b = new Gate('B', events);
    const holder = new Swappable(a, { exclusive: false });
    const first = holder.use((x) => x.call('resend'));
    await settle();
    holder.swap(b);
    const second = holder.use((x) => x.call('store'));
    await settle();
    expect(events).toEqual(['A start resend', 'B start store']);
    b.finishAll();
    expect(await second).toBe('B:store');
    a.finishAll();
    expect(await first).toBe('A:resend');
    await settle();
    expect(events).toEqual(['A start resend', 'B start store', 'B end store', 'A end resend', 'A closed']);
    await holder.close();
    expect(events.at(-1)).toBe('B closed');
  });
});
