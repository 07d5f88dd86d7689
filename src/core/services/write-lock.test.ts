import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { BACKGROUND_TURNS_PER_NETWORK_WAIT, WriteLock } from './write-lock.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('WriteLock', () => {
  it('refuses a second writer at once with 300 BUSY while the first holds it', async () => {
    const lock = new WriteLock();
    let release!: () => void;
    const first = lock.run('first', () => new Promise<string>((r) => (release = () => r('done'))));
    await expect(lock.run('second', async () => 'never')).rejects.toSatisfy(
      (e) => FiscalError.is(e) && e.resultCode === 300,
    );
    expect(lock.holder).toBe('first');
    release();
    await expect(first).resolves.toBe('done');
    await expect(lock.run('third', async () => 3)).resolves.toBe(3);
  });

  it('is released when the work fails', async () => {
    const lock = new WriteLock();
    await expect(lock.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(lock.holder).toBeUndefined();
  });

  it('lets background work wait for a client to finish', async () => {
    const lock = new WriteLock();
    const gate = deferred();
    const order: string[] = [];
    const first = lock.run('client', async () => {
      await gate.promise;
      order.push('client');
    });
    const waiting = lock.runBackground('resend', async () => {
      order.push('resend');
      return 'appended';
    });
    gate.resolve();
    await first;
    await expect(waiting).resolves.toBe('appended');
    expect(order).toEqual(['client', 'resend']);
  });

  it('makes a client wait for a short background section instead of answering 300 (ADR 0701)', async () => {
    const lock = new WriteLock();
    const gate = deferred();
    const order: string[] = [];
    const background = lock.runBackground('resend', async () => {
      await gate.promise;
      order.push('resend');
    });
    const client = lock.run('document/store', async () => {
      order.push('client');
      return 0;
    });
    expect(lock.holder).toBe('resend');
    gate.resolve();
    await background;
    await expect(client).resolves.toBe(0);
    expect(order).toEqual(['resend', 'client']);
  });

  it('tells background work when no client request holds or waits for it (clientIdle)', async () => {
    const lock = new WriteLock();
    await lock.clientIdle();
    let idle = false;
    const gate = deferred();
    const client = lock.run('document/store', () => gate.promise);
    const waiting = lock.clientIdle().then(() => {
      idle = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    gate.resolve();
    await client;
    await waiting;
    expect(idle).toBe(true);
    // A background hold alone does not count; a client waiting for it does.
    const bgGate = deferred();
    const background = lock.runBackground('resend', () => bgGate.promise);
    await lock.clientIdle();
    const second = lock.run('document/store', async () => undefined);
    let idleAgain = false;
    const waitingAgain = lock.clientIdle().then(() => {
      idleAgain = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(idleAgain).toBe(false);
    bgGate.resolve();
    await background;
    await second;
    await waitingAgain;
    expect(idleAgain).toBe(true);
  });

  it('lets background CPU work take its turns while the client holder waits on the network, never a write (ADR 1107)', async () => {
    const lock = new WriteLock();
    const names = Array.from({ length: BACKGROUND_TURNS_PER_NETWORK_WAIT + 2 }, (_, i) => `w${i}`);
    const granted = names.slice(0, BACKGROUND_TURNS_PER_NETWORK_WAIT);
    const tick = () => new Promise((r) => setImmediate(r));
    const turns: string[] = [];
    const asks = names.map((name) => lock.clientIdle().then(() => turns.push(name)));
    expect(turns).toEqual([]);
    await Promise.all(asks.splice(0));
    turns.length = 0;
    const answer = deferred();
    const computing = deferred();
    const store = deferred();
    let wrote = false;
    const client = lock.run('document/store', async () => {
      await computing.promise;
      await lock.whileAwaitingNetwork(() => answer.promise);
      await store.promise;
    });
    asks.push(...names.map((name) => lock.clientIdle().then(() => turns.push(name))));
    const append = lock.runBackground('resend', async () => {
      wrote = true;
    });
    // The client computes: no turn.
    for (let i = 0; i < 5; i++) await tick();
    expect(turns).toEqual([]);
    // The client waits on the network: its turns, first come first served, and no write.
    computing.resolve();
    for (let i = 0; i < 5; i++) await tick();
    expect(turns).toEqual(granted);
    expect(wrote).toBe(false);
    // The answer is in, the client computes again: no further turn.
    answer.resolve();
    for (let i = 0; i < 5; i++) await tick();
    expect(turns).toEqual(granted);
    expect(wrote).toBe(false);
    expect(lock.holder).toBe('document/store');
    store.resolve();
    await client;
    await Promise.all(asks);
    await append;
    expect(turns).toEqual(names);
    expect(wrote).toBe(true);
    // Outside a client's hold the mark is nothing: the wait just runs.
    await expect(lock.whileAwaitingNetwork(async () => 7)).resolves.toBe(7);
  });

  it('tells background work that a client waits for it (so a batch of records can end its hold)', async () => {
    const lock = new WriteLock();
    const gate = deferred();
    const background = lock.runBackground('resend', () => gate.promise);
    expect(lock.clientWaiting).toBe(false);
    const client = lock.run('document/store', async () => 'stored');
    expect(lock.clientWaiting).toBe(true);
    gate.resolve();
    await background;
    await expect(client).resolves.toBe('stored');
    expect(lock.clientWaiting).toBe(false);
  });

  it('still refuses the second of two clients that waited for the same background section', async () => {
    const lock = new WriteLock();
    const gate = deferred();
    const background = lock.runBackground('resend', () => gate.promise);
    const slow = deferred();
    const a = lock.run('a', () => slow.promise.then(() => 'a'));
    const b = lock.run('b', async () => 'b');
    gate.resolve();
    await background;
    await expect(b).rejects.toSatisfy((e) => FiscalError.is(e) && e.resultCode === 300);
    slow.resolve();
    await expect(a).resolves.toBe('a');
  });

  it('counts its holds and tells when nobody holds it, for readers that must see settled states', async () => {
    const lock = new WriteLock();
    await lock.idle(); // free: resolves at once
    expect(lock.holds).toBe(0);
    const gate = deferred();
    const client = lock.run('document/store', () => gate.promise);
    expect(lock.holds).toBe(1);
    let idle = false;
    const waiting = lock.idle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    gate.resolve();
    await client;
    await waiting;
    expect(idle).toBe(true);
    expect(lock.holder).toBeUndefined();
    await lock.runBackground('resend', async () => undefined);
    expect(lock.holds).toBe(2);
  });
});
