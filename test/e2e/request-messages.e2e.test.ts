import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT, IMAGE_BODY_LIMIT } from '../../src/http/server-limits.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

/**
 * What a POS developer reads when kasa refuses a request at the HTTP boundary: kasa's own sentence
 * naming the field (never zod's stock English), a member sent twice refused (ADR 0425), and a body
 * over the size limit told the limit of that endpoint.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** zod's stock English ("Invalid input: expected boolean, received string", "Too big: …"). */
const STOCK = /Invalid input|Invalid option|Too big|Too small|expected .* received/;

async function raw(url: string, payload: string, method: 'POST' | 'PUT' = 'POST') {
  const res = await h.kasa.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json' },
    payload,
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const lastDocument = async () => (await h.post('/api/document/get', {})).body;

describe('701 rules are kasa sentences naming the field (no zod stock English)', () => {
  const paragonDate = '01.01.2026 10:00:00';
  const cases: Array<[string, string, unknown, string]> = [
    [
      'too_big',
      '/api/document/store',
      pd({ printer: { printDelay: 20_000 } }),
      'printer.printDelay: must be a whole number from 0 to 10000',
    ],
    [
      'too_small',
      '/api/document/store',
      pd({ printer: { printDelay: -1 } }),
      'printer.printDelay: must be a whole number from 0 to 10000',
    ],
    [
      'not an integer',
      '/api/document/store',
      pd({ paragonNumber: 1.5, paragonDate }),
      'paragonNumber: must be a whole number from 1 to 2147483647',
    ],
    [
      'boolean',
      '/api/document/store',
      pd({ electronicReceipt: 'yes' }),
      'electronicReceipt: must be true or false',
    ],
    ['string', '/api/document/store', pd({ externalId: 5 }), 'externalId: must be a string'],
    ['object (the body)', '/api/document/store', [pd()], 'body: must be a JSON object'],
    [
      'object (a member)',
      '/api/document/store',
      pd({ printer: 'default' }),
      'printer: must be a JSON object',
    ],
    [
      'number',
      '/api/document/get',
      { documentBySequenceId: { sequenceId: 'x' } },
      'documentBySequenceId.sequenceId: must be a whole number',
    ],
  ];

  it.each(cases)('%s: %s', async (_kind, url, body, error) => {
    const res = await h.post(url, body);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ resultCode: 701, error, errorMessage: error });
    expect(res.body.field).toBe(error.slice(0, error.indexOf(':')));
    for (const issue of res.body.issues) expect(issue.rule).not.toMatch(STOCK);
  });

  it('invalid_value: the accepted values listed (a setting of a few values)', async () => {
    const res = await raw(
      '/api/settings/store',
      JSON.stringify({ settings: { printerCodepage: 'utf8' } }),
      'PUT',
    );
    expect(res.body).toMatchObject({
      resultCode: 701,
      field: 'settings.printerCodepage',
      error: 'settings.printerCodepage: must be one of cp852, cp1250, raster',
    });
  });

  it('0 and 1.5 as paragonNumber get the same sentence', async () => {
    const zero = await h.post('/api/document/store', pd({ paragonNumber: 0, paragonDate }));
    const half = await h.post('/api/document/store', pd({ paragonNumber: 1.5, paragonDate }));
    expect(half.body.error).toBe(zero.body.error);
  });

  it('keeps the sentences a schema spells itself', async () => {
    expect((await h.post('/api/document/store', pd({ type: 'XX' }))).body.error).toBe(
      'type: unknown value "XX"; one of PD, UF, ND',
    );
    expect((await h.post('/api/document/store', pd({ amount: 'x' }))).body.error).toBe(
      'amount: must be a number',
    );
    expect((await h.post('/api/document/store', pd({ amount: undefined }))).body.error).toBe(
      'amount: is required',
    );
  });
});

describe('a member named twice is refused, not read as the last one (ADR 0425)', () => {
  it('refuses {"amount":…,"amount":…} with 701 naming it, and stores nothing', async () => {
    const before = await lastDocument();
    const body = JSON.stringify(pd()).replace('"amount":7.45', '"amount":7.45,"amount":2');
    const res = await raw('/api/document/store', body);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      resultCode: 701,
      field: 'amount',
      error: 'amount: appears twice in the request',
    });
    expect(await lastDocument()).toEqual(before);
  });

  it('names the path of a member twice deeper in the body', async () => {
    const body = JSON.stringify(pd()).replace('"price":0.15', '"price":0.15,"price":0.1');
    const res = await raw('/api/document/store', body);
    expect(res.body).toMatchObject({ resultCode: 701, field: 'documentEntries[1].price' });
    expect(res.body.error).toBe('documentEntries[1].price: appears twice in the request');
  });

  it('still stores a body whose objects share names (each object names each member once)', async () => {
    const res = await h.post('/api/document/store', pd());
    expect(res.body.resultCode).toBe(0);
  });
});

describe('413 names the limit of the endpoint', () => {
  it('the general limit (1 MiB) on POST /api/document/store', async () => {
    const body = JSON.stringify(pd({ externalId: 'x'.repeat(BODY_LIMIT) }));
    const res = await raw('/api/document/store', body);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      resultCode: 701,
      field: 'body',
      error: `body: must be at most ${BODY_LIMIT} bytes on this endpoint`,
    });
    expect(BODY_LIMIT).toBe(1_048_576);
  });

  it('the image limit (10 MiB) on POST /api/image/store: an 8 MB photo in Base64', async () => {
    const photo = Buffer.alloc(8_000_000, 0xab).toString('base64');
    const res = await raw('/api/image/store', JSON.stringify({ imageData: photo }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      resultCode: 701,
      field: 'body',
      error: `body: must be at most ${IMAGE_BODY_LIMIT} bytes on this endpoint`,
    });
    expect(IMAGE_BODY_LIMIT).toBe(10_485_760);
  });
});
