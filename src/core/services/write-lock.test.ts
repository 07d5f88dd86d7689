import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { WriteLock } from './write-lock.js';

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

  it('lets background work wait for the lock', async () => {
    const lock = new WriteLock();
    let release!: () => void;
    const first = lock.run('first', () => new Promise<void>((r) => (release = r)));
    const waiting = lock.runWhenFree('resend', async () => 'sent', 1000, 5);
    setTimeout(() => release(), 30);
    await first;
    await expect(waiting).resolves.toBe('sent');
  });
});
