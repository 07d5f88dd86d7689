import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/kasa-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the offline, repair and location endpoints while the register cannot work (ADR 0008 §11)', () => {
  it('answer the cause (402, no merchant) with an ErrorResponse, and write nothing', async () => {
    h = await startHarness({ demo: false });
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/document/send/offline', {}],
      ['POST', '/api/report/offline', {}],
      ['GET', '/api/report/offline/oldest'],
      ['POST', '/api/document/get/offline', {}],
      ['POST', '/api/document/update', { fixDocument: { useLastMerchant: true } }],
      ['POST', '/api/location/update', { other: 'Taxi' }],
      ['GET', '/api/location/get'],
    ];
    for (const [method, url, body] of calls) {
      const res = method === 'GET' ? await h.get(url) : await h.post(url, body);
      expect(res.status, url).toBe(500);
      expect(res.body, url).toMatchObject({ resultCode: 402 });
      expect(typeof res.body.error).toBe('string');
    }
    expect(h.kasa.parts.journal.head()).toBeUndefined();
  });

  it('empty lists when nothing waits; GET oldest the same; 500 on a repair with nothing stuck', async () => {
    h = await startHarness();
    const empty = { resultCode: 0, documents: [], locations: [] };
    expect((await h.post('/api/report/offline', {})).body).toEqual({
      ...empty,
      totalItems: 0,
      moreItems: false,
    });
    expect((await h.get('/api/report/offline/oldest')).body).toEqual(empty);
    expect((await h.post('/api/document/send/offline', {})).body).toEqual(empty);
    const repair = await h.post('/api/document/update', { fixDocument: { useLastMerchant: true } });
    expect(repair.status).toBe(500);
    expect(repair.body.resultCode).toBe(500);
    expect((await h.post('/api/document/update', {})).body).toMatchObject({
      resultCode: 701,
      field: 'fixDocument',
    });
  });
});
