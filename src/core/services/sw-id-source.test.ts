import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { swId } from '../sfs/sw-id.js';
import { SwIdSource } from './sw-id-source.js';

const software = { manufacturer: 'kasa', product: 'kasa', version: '1.2.3' };

describe('SwIdSource (ADR 0421)', () => {
  it('uses a configured SwId as is (case kept), without asking the CHDÚ', async () => {
    let asked = 0;
    const s = new SwIdSource({
      configured: 'ab'.repeat(20),
      software,
      chdu: { name: 'CHDU Lite', version: async () => `${++asked}` },
    });
    expect(s.value).toBe('ab'.repeat(20));
    expect(await s.refresh()).toBe(true);
    expect(asked).toBe(0);
  });

  it('refuses a configured value that is not 40 hex digits', () => {
    expect(
      () => new SwIdSource({ configured: 'xyz', software, chdu: { name: 'x', version: async () => '1' } }),
    ).toThrow(RangeError);
  });

  it('derives from the CHDÚ model and the version it reports, once known', async () => {
    let version: string | Error = new FiscalError('CHDU_NOT_CONNECTED', 'no device');
    const s = new SwIdSource({
      software,
      chdu: {
        name: 'CHDU Lite',
        version: async () => {
          if (version instanceof Error) throw version;
          return version;
        },
      },
    });
    expect(s.report()).toEqual({ swIdOrigin: 'pending' });
    expect(() => s.value).toThrow(expect.objectContaining({ resultCode: 200 }));
    await expect(s.probe().run()).rejects.toMatchObject({ resultCode: 200 });
    expect(await s.refresh()).toBe(false);

    version = '2.07';
    expect(await s.refresh()).toBe(true);
    const expected = swId({ ...software, chduName: 'CHDU Lite', chduVersion: '2.07' });
    expect(s.report()).toEqual({
      swId: expected,
      swIdOrigin: 'derived',
      swIdDerivedFrom: 'kasa|kasa|CHDU Lite|1.2.3|2.07',
    });
    expect(s.value).toBe(expected);
  });

  it('fails the check when the CHDÚ reports an empty version', async () => {
    const s = new SwIdSource({ software, chdu: { name: 'CHDU Lite', version: async () => ' ' } });
    await expect(s.probe().run()).rejects.toMatchObject({ resultCode: 200 });
  });
});
