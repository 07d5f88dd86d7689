import forge from 'node-forge';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PKCS12_LIMITS } from '../../src/adapters/merchant/pkcs12-limits.js';
import { readPkcs12 } from '../../src/adapters/merchant/pkcs12-reader.js';
import { WorkerPkcs12Reader } from '../../src/adapters/merchant/pkcs12-worker-reader.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { craftKeystore } from './crafted-keystore.js';

/** Counts the key derivations node-forge runs on this thread (PKCS#12 KDF for PBE and MAC, PBKDF2). */
function countDerivations(): () => number {
  const pbe = (forge.pki as unknown as { pbe: { generatePkcs12Key: (...a: unknown[]) => unknown } }).pbe;
  const spies = [
    vi.spyOn(pbe, 'generatePkcs12Key'),
    vi.spyOn(forge.pkcs12, 'generateKey'),
    vi.spyOn(forge.pkcs5, 'pbkdf2'),
  ];
  return () => spies.reduce((n, s) => n + s.mock.calls.length, 0);
}

function refusal(fn: () => unknown): FiscalError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FiscalError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

afterEach(() => vi.restoreAllMocks());

describe('keystore limits: refused on the structure, before any key derivation', () => {
  it('a 4 KB keystore of 30 properly encrypted bags × 100,000 iterations (about 20 s unbounded)', () => {
    const keystore = craftKeystore({ bags: 30, iterations: 100_000, password: 'x' });
    expect(keystore.byteLength).toBeLessThan(4096);
    const derivations = countDerivations();
    const e = refusal(() => readPkcs12(keystore, 'x', 'x'));
    expect(e.resultName).toBe('MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE');
    expect(e.details).toMatchObject({ keystoreProblem: 'over-limits' });
    expect(e.message).toContain(`more than ${DEFAULT_PKCS12_LIMITS.maxWork} units`);
    expect(derivations()).toBe(0);
  });

  it('one derivation with a huge iteration count, in a bag or in the MAC', () => {
    const derivations = countDerivations();
    const bag = refusal(() => readPkcs12(craftKeystore({ bags: 1, iterations: 50_000_000 }), 'x', 'x'));
    expect(bag.details).toMatchObject({ keystoreProblem: 'over-limits' });
    expect(bag.message).toContain('50000000 iterations');
    const mac = refusal(() =>
      readPkcs12(craftKeystore({ bags: 1, iterations: 1024, macIterations: 2 ** 31 - 1 }), 'x', 'x'),
    );
    expect(mac.details).toMatchObject({ keystoreProblem: 'over-limits' });
    expect(derivations()).toBe(0);
  });

  it('too many bags or content parts, even cheap ones', () => {
    const derivations = countDerivations();
    const bags = refusal(() => readPkcs12(craftKeystore({ bags: 33, iterations: 1 }), 'x', 'x'));
    expect(bags.message).toContain(`more than ${DEFAULT_PKCS12_LIMITS.maxBags} bags`);
    const parts = refusal(() => readPkcs12(craftKeystore({ bags: 9, iterations: 1, parts: 9 }), 'x', 'x'));
    expect(parts.message).toContain('9 content parts');
    expect(derivations()).toBe(0);
  });

  it('a keystore larger than 64 KiB', () => {
    const big = refusal(() => readPkcs12(new Uint8Array(65 * 1024), 'x', 'x'));
    expect(big.details).toMatchObject({ keystoreProblem: 'over-limits' });
  });

  it('within the bounds a crafted keystore is read as usual (wrong password → 403 wrong-password)', () => {
    const keystore = craftKeystore({ bags: 2, iterations: 2048, password: 'right' });
    expect(readPkcs12(keystore, 'right', 'right').keys).toHaveLength(2);
    expect(refusal(() => readPkcs12(keystore, 'wrong', 'wrong')).details).toMatchObject({
      keystoreProblem: 'wrong-password',
    });
  });
});

describe('keystore reading in a worker thread', () => {
  it('answers like the inline reader', async () => {
    const keystore = craftKeystore({ bags: 2, iterations: 1024, password: 'pw' });
    const contents = await new WorkerPkcs12Reader().read(keystore, 'pw', 'pw');
    expect(contents).toEqual(readPkcs12(keystore, 'pw', 'pw'));
    await expect(new WorkerPkcs12Reader().read(keystore, 'bad', 'bad')).rejects.toMatchObject({
      resultCode: 403,
      details: { keystoreProblem: 'wrong-password' },
    });
  });

  it('stops a read that passes its time limit (403 over-limits) and refuses a second read meanwhile (300)', async () => {
    // Within the work bounds, but about half a second of key derivation; the limit here is 50 ms.
    const keystore = craftKeystore({ bags: 1, iterations: 100_000, password: 'pw' });
    const reader = new WorkerPkcs12Reader({ timeLimitMs: 50 });
    const first = reader.read(keystore, 'pw', 'pw');
    await expect(reader.read(keystore, 'pw', 'pw')).rejects.toMatchObject({ resultCode: 300 });
    const e = await first.then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(FiscalError);
    expect((e as FiscalError).details).toMatchObject({ keystoreProblem: 'over-limits' });
    expect((e as FiscalError).message).toContain('took longer than 0.05 s');
    // The reader is free again afterwards (not BUSY; on a slow machine even this read may pass 50 ms).
    const again = await reader.read(craftKeystore({ bags: 1, iterations: 1, password: 'a' }), 'a', 'a').then(
      (c) => c.keys.length,
      (x: FiscalError) => x.resultCode,
    );
    expect([1, 403]).toContain(again);
  });
});
