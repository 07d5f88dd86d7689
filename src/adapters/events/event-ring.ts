import { randomBytes } from 'node:crypto';
import type {
  NewRegisterEvent,
  RegisterEvent,
  RegisterEventFeed,
  RegisterEvents,
} from '../../core/ports/register-events.js';

/** Events kept for `Last-Event-ID` replay (docs/integration.md names the number). */
export const DEFAULT_EVENT_WINDOW = 1000;

/**
 * The in-process event bus (ADR 0805): a bounded ring of the last `window` events plus the live
 * subscribers. Ids are `<run>-<n>`: `run` is random per start of kasa, `n` counts from 1, so an id
 * from an earlier run is recognised as such instead of being mistaken for a recent one.
 */
export class EventRing implements RegisterEvents, RegisterEventFeed {
  readonly run: string;
  private readonly ring: RegisterEvent[] = [];
  private readonly listeners = new Set<(event: RegisterEvent) => void>();
  private seq = 0;

  constructor(
    readonly window = DEFAULT_EVENT_WINDOW,
    private readonly now: () => Date = () => new Date(),
    run = randomBytes(4).toString('hex'),
  ) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError('window must be a positive integer');
    this.run = run;
  }

  publish(event: NewRegisterEvent): void {
    const published: RegisterEvent = {
      id: `${this.run}-${++this.seq}`,
      type: event.type,
      at: this.now().toISOString(),
      data: event.data,
    };
    this.ring.push(published);
    if (this.ring.length > this.window) this.ring.shift();
    for (const listener of [...this.listeners]) {
      try {
        listener(published);
      } catch {
        // A subscriber's failure is its own (the HTTP stream drops that client); never the publisher's.
      }
    }
  }

  since(lastEventId: string | undefined): { events: RegisterEvent[]; complete: boolean } {
    if (lastEventId === undefined || lastEventId === '') return { events: [], complete: true };
    const m = /^([0-9a-f]+)-(\d{1,15})$/.exec(lastEventId);
    if (!m || m[1] !== this.run) return { events: [...this.ring], complete: false };
    const n = Number(m[2]);
    if (n > this.seq) return { events: [...this.ring], complete: false };
    const after = this.ring.filter((e) => seqOf(e) > n);
    const oldest = this.ring[0] ? seqOf(this.ring[0]) : this.seq + 1;
    // Complete when nothing between the client's last event and the oldest kept one was dropped.
    return { events: after, complete: oldest <= n + 1 };
  }

  subscribe(listener: (event: RegisterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Live subscribers (tests, status). */
  get subscribers(): number {
    return this.listeners.size;
  }
}

function seqOf(e: RegisterEvent): number {
  return Number(e.id.slice(e.id.lastIndexOf('-') + 1));
}
