import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

// ajv is CommonJS: under ESM its class sits on `.default`.
const Ajv2020 = Ajv2020Module.default;

let h: Harness;
let doc: Json;
beforeAll(async () => {
  h = await startHarness();
  doc = (await h.get('/api/openapi.json')).body;
});
afterAll(async () => h.close());

/** A validator for one response of one operation, exactly as the OpenAPI document states it. */
function responseValidator(path: string, status: string) {
  const schema = doc.paths[path].post.responses[status].content['application/json'].schema;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addKeyword('example');
  // The component references are '#/components/schemas/…': give the schema that root.
  return ajv.compile({ ...schema, components: doc.components });
}

function check(path: string, status: number, body: Json): void {
  const validate = responseValidator(path, String(status));
  const ok = validate(body);
  expect(ok, JSON.stringify(validate.errors)).toBe(true);
}

describe('OpenAPI describes partialPrint (PartialPrintInfo) where the answers carry it', () => {
  it('PartialPrintInfo is a component with every member described', () => {
    const info = doc.components.schemas.PartialPrintInfo;
    expect(info).toBeDefined();
    for (const member of ['totalBytes', 'resumeOffset', 'printedLines', 'lastPrintedLine', 'jobSha256']) {
      expect(info.properties[member]?.description, member).toBeTruthy();
    }
    expect(info.required).toEqual(expect.arrayContaining(['totalBytes', 'resumeOffset', 'jobSha256']));
  });

  it('the 507 of a store cut short (printResultCode 106 + partialPrint) validates against DocumentResponse', async () => {
    h.printer.failNext('PARTIAL_PRINT');
    const res = await h.post('/api/document/store', pd({ externalId: 'oas-106' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resultCode: 507, printResultCode: 106 });
    expect(res.body.partialPrint.resumeOffset).toBeGreaterThan(0);
    check('/api/document/store', 200, res.body);
  });

  it('the 106 of POST /api/document/print validates against its ErrorResponse', async () => {
    h.printer.failNext('PARTIAL_PRINT');
    const res = await h.post('/api/document/print', {});
    expect(res.status).toBe(500);
    expect(res.body.resultCode).toBe(106);
    expect(res.body.partialPrint.jobSha256).toMatch(/^[0-9a-f]{64}$/);
    check('/api/document/print', 500, res.body);
    // A bent partialPrint is caught: the schema really describes the member.
    const validate = responseValidator('/api/document/print', '500');
    expect(validate({ ...res.body, partialPrint: { ...res.body.partialPrint, resumeOffset: 'x' } })).toBe(
      false,
    );
    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
  });

  it('a cash print cut short answers 106 with partialPrint, valid against ErrorResponse', async () => {
    h.printer.failNext('PARTIAL_PRINT');
    const res = await h.post('/api/cash', { amount: 10 });
    expect(res.body.resultCode).toBe(106);
    check('/api/cash', res.status, res.body);
    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
  });
});

describe('OpenAPI describes the members of a 701 (field, issues, issuesNotListed)', () => {
  it('a 701 with more problems than it lists validates against ErrorResponse, and a bent one does not', async () => {
    const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`unknown${i}`, 1]));
    const res = await h.post('/api/document/store', { ...pd(), ...body });
    expect(res.body).toMatchObject({ resultCode: 701, issuesNotListed: 10 });
    expect(res.body.issues).toHaveLength(20);
    check('/api/document/store', res.status, res.body);
    const validate = responseValidator('/api/document/store', String(res.status));
    expect(validate({ ...res.body, issuesNotListed: 'ten' })).toBe(false);
    expect(validate({ ...res.body, issues: [{ field: 1 }] })).toBe(false);
  });
});
