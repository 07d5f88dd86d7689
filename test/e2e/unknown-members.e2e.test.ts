import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { IGNORED_VENDOR_MEMBERS } from '../../src/http/schemas/strict-request.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

/**
 * Capability 16 point 5 / ADR 0424: an unknown request member is a 701 naming it — on every route —
 * except the other vendors' members kasa accepts and ignores on purpose.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const UNKNOWN = 'kasaUnknownMember';
const BODY_METHODS = ['post', 'put', 'patch', 'delete'] as const;

type OpenApi = {
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
};

function resolve(doc: OpenApi, schema: Json): Json {
  if (schema && typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1) as string;
    return doc.components?.schemas?.[name];
  }
  return schema;
}

describe('unknown members on every route', () => {
  it('every route that takes a body refuses an unknown top-level member with 701 naming it', async () => {
    const doc = (await h.get('/api/openapi.json')).body as OpenApi;
    const covered: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of BODY_METHODS) {
        const op = operations[method];
        if (!op) continue;
        const route = `${method.toUpperCase()} ${path}`;
        const schema = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
        expect(schema, `${route} documents no JSON body schema`).toBeDefined();
        expect(schema.additionalProperties, `${route}: OpenAPI must say additionalProperties: false`).toBe(
          false,
        );
        const res = await h.kasa.app.inject({
          method: method.toUpperCase() as 'POST',
          // A path parameter (`/api/qrpayment/{id}/cancel`) gets a plain value: the body is checked first.
          url: path.replace(/\{[^}]+\}/g, 'x'),
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ [UNKNOWN]: 1 }),
        });
        const body = res.json() as Json;
        expect(body.resultCode, `${route} accepted an unknown member`).toBe(701);
        expect(body.field, route).toBe(UNKNOWN);
        expect(body.error, route).toContain(UNKNOWN);
        covered.push(route);
      }
    }
    console.info(`unknown-member check covered ${covered.length} routes: ${covered.join(', ')}`);
    expect(covered).toEqual(
      expect.arrayContaining([
        'POST /api/document/store',
        'POST /api/document/get',
        'POST /api/document/print',
        'POST /api/cash',
        'POST /api/merchant/store',
        'POST /api/merchant/get',
      ]),
    );
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(0);
  });
});

describe('the cases found by the audit', () => {
  it('POST /api/document/get {"uuid": …} is 701 naming uuid, not the last document', async () => {
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    const printed = h.printer.history.length;
    const res = await h.post('/api/document/get', { uuid: 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A' });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ resultCode: 701, field: 'uuid' });
    expect(res.body.document).toBeUndefined();
    expect(h.printer.history.length).toBe(printed);
  });

  it('POST /api/cash {"type": "VY", "amount": 10} is 701 naming type, no deposit issued', async () => {
    const before = h.kasa.parts.index.lastDocumentNo();
    const res = await h.post('/api/cash', { type: 'VY', amount: 10 });
    expect(res.body).toMatchObject({ resultCode: 701, field: 'type' });
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(before);
  });

  it('names unknown members inside objects and lists, first among other problems', async () => {
    const item = { name: 'Káva', price: 1, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE', unit: 'ks' };
    const store = await h.post('/api/document/store', pd({ documentEntries: [item], amount: 'x' }));
    expect(store.body).toMatchObject({ resultCode: 701, field: 'documentEntries[0].unit' });
    expect(store.body.issues.map((i: Json) => i.field)).toContain('amount');
    const get = await h.post('/api/document/get', { documentByUUID: { UUID: 'O-1' } });
    expect(get.body).toMatchObject({ resultCode: 701, field: 'documentByUUID.UUID' });
    const printer = await h.post('/api/cash', { amount: 10, printer: { paper: 'A4' } });
    expect(printer.body).toMatchObject({ resultCode: 701, field: 'printer.paper' });
  });
});

describe('a body of many unknown members (ADR 0427)', () => {
  it('1 MB of them is one 701 listing the first 20 and counting the rest; nothing is stored', async () => {
    const members: string[] = [];
    for (let i = 0, size = 2; size < 1_000_000; i++) {
      members.push(`"${i.toString(36)}":0`);
      size += members.at(-1)!.length + 1;
    }
    const payload = `{${members.join(',')}}`;
    const before = h.kasa.parts.index.lastDocumentNo();
    const res = await h.kasa.app.inject({
      method: 'POST',
      url: '/api/document/store',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    // It was 15 MB naming each member.
    expect(res.rawPayload.byteLength).toBeLessThan(10_000);
    const body = res.json() as Json;
    expect(body).toMatchObject({ resultCode: 701, field: '0' });
    expect(body.issues).toHaveLength(20);
    // The unknown members, then the required members the body lacks (type, amount, …).
    expect(body.issuesNotListed).toBeGreaterThan(members.length - 20);
    expect(body.error).toContain(`and ${body.issuesNotListed + 19} more problems`);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(before);
  });
});

describe("other vendors' members kasa ignores on purpose", () => {
  it('Printer socket / numberOfCharInRow / codingNumber, CashRequest footer, GetDocumentRequest offlineDocuments', async () => {
    const printer = { socket: 'tcp://192.168.88.87:9100', numberOfCharInRow: 48, codingNumber: 30 };
    expect((await h.post('/api/document/store', pd({ printer }))).body.resultCode).toBe(0);
    expect((await h.post('/api/cash', { amount: 5, footer: 'Ďakujeme', printer })).body.resultCode).toBe(0);
    const got = await h.post('/api/document/get', { offlineDocuments: false });
    expect(got.body.resultCode).toBe(0);
    expect(got.body.document.type).toBe('VK');
  });

  it('GetDocumentRequest offlineDocuments: true asks for a list, so it is refused (701) naming the endpoint that lists', async () => {
    for (const value of [true, 'yes', 1]) {
      const got = await h.post('/api/document/get', { offlineDocuments: value });
      expect(got.body).toMatchObject({ resultCode: 701, field: 'offlineDocuments' });
      expect(got.body.document).toBeUndefined();
      expect(got.body.error).toContain('POST /api/document/get/offline');
    }
    expect((await h.post('/api/document/get', { offlineDocuments: null })).body.resultCode).toBe(0);
  });

  it('StoreMerchantRequest integrator / dealer', async () => {
    const PW = 'Vendor-Members-Pw-1';
    const m = createTestMerchant({ caDir: join(h.dataDir, DEMO_CA_DIR), password: PW });
    const res = await h.post('/api/merchant/store', {
      identificationData: m.identityXml,
      authenticationData: m.authXml,
      keyStorePassword: PW,
      integrator: 'Papaya',
      dealer: 'Shop s.r.o.',
    });
    expect(res.body.resultCode).toBe(0);
  });

  it('every one of them is listed in docs/http-api.md', () => {
    const text = readFileSync('docs/http-api.md', 'utf8');
    for (const [object, members] of Object.entries(IGNORED_VENDOR_MEMBERS)) {
      for (const member of Object.keys(members)) expect(text).toContain(`\`${object}.${member}\``);
    }
  });
});
