import { describe, expect, it } from 'vitest';
import { EventRing } from './event-ring.js';

const stored = (n: number) => ({ type: 'document.stored' as const, data: { internalDocumentId: n } });

describe('EventRing', () => {
  it('gives increasing ids and replays what came after a known id', () => {
    const ring = new EventRing(10, () => new Date('2026-03-02T10:00:00Z'), 'abcd');
    for (let i = 1; i <= 5; i++) ring.publish(stored(i));
    expect(ring.since('abcd-2')).toEqual({
      events: [3, 4, 5].map((n) => ({
        id: `abcd-${n}`,
        type: 'document.stored',
        at: '2026-03-02T10:00:00.000Z',
        data: { internalDocumentId: n },
      })),
      complete: true,
    });
    expect(ring.since('abcd-5')).toEqual({ events: [], complete: true });
    expect(ring.since(undefined)).toEqual({ events: [], complete: true });
  });

  it('says when events were lost: older than the window, another run, an id from the future', () => {
    const ring = new EventRing(3, undefined, 'abcd');
    for (let i = 1; i <= 6; i++) ring.publish(stored(i));
    expect(ring.since('abcd-2')).toMatchObject({ complete: false });
    expect(ring.since('abcd-2').events.map((e) => e.id)).toEqual(['abcd-4', 'abcd-5', 'abcd-6']);
    expect(ring.since('abcd-3')).toMatchObject({ complete: true }); // 4, 5, 6 all kept
    expect(ring.since('ffff-3')).toMatchObject({ complete: false });
    expect(ring.since('abcd-99')).toMatchObject({ complete: false });
    expect(ring.since('garbage')).toMatchObject({ complete: false });
  });

  it('a failing subscriber neither stops the others nor the publisher', () => {
    const ring = new EventRing(5);
    const got: string[] = [];
    ring.subscribe(() => {
      throw new Error('broken client');
    });
    const off = ring.subscribe((e) => got.push(e.type));
    ring.publish(stored(1));
    off();
    ring.publish(stored(2));
    expect(got).toEqual(['document.stored']);
    expect(ring.subscribers).toBe(1);
  });
});
