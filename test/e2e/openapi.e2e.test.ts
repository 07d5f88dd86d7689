import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allResultCodes } from '../../src/core/result-codes.js';
import { httpStatusFor, PROTOCOL_STATUSES } from '../../src/http/error-mapping.js';
import { type Harness, type Json, startHarness } from '../support/kasa-harness.js';

let h: Harness;
let doc: Json;
beforeAll(async () => {
  h = await startHarness();
  doc = (await h.get('/api/openapi.json')).body;
});
afterAll(async () => h.close());

function resolve(schema: Json): Json {
  if (schema?.$ref) {
    const name = String(schema.$ref).replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return resolve(target);
  }
  return schema;
}

/** Examples on the schema itself, or on every member of a union. */
function hasExamples(schema: Json): boolean {
  const s = resolve(schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return true;
  const members = s.anyOf ?? s.oneOf;
  return Array.isArray(members) && members.length > 0 && members.every(hasExamples);
}

/** Examples on the media type (inline schemas) or on its schema. */
function mediaHasExamples(media: Json): boolean {
  return media?.example !== undefined || media?.examples !== undefined || hasExamples(media?.schema);
}

function allRefs(node: Json, out: string[] = []): string[] {
  if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string') out.push(node.$ref);
    for (const v of Object.values(node)) allRefs(v, out);
  }
  return out;
}

describe('OpenAPI document of the whole register', () => {
  it('resolves every $ref to a component schema', () => {
    expect(Object.keys(doc.components.schemas).length).toBeGreaterThan(10);
    for (const ref of allRefs(doc.paths)) expect(() => resolve({ $ref: ref }), ref).not.toThrow();
  });

  it('lists every implemented /api/ endpoint with request and response schemas and examples', () => {
    const expected = [
      'GET /api/version',
      'GET /api/status/get',
      'GET /api/chduinfo',
      'POST /api/merchant/store',
      'POST /api/merchant/get',
      'GET /api/merchant/status',
      'POST /api/document/store',
      'POST /api/document/get',
      'POST /api/document/print',
      'POST /api/cash',
      'POST /api/document/send/offline',
      'POST /api/report/offline',
      'GET /api/report/offline/oldest',
      'POST /api/document/get/offline',
      'POST /api/document/update',
      'POST /api/offline/set-aside',
      'POST /api/location/update',
      'GET /api/location/get',
      'GET /api/printer',
      'POST /api/print',
      'POST /api/drawer/open',
      'POST /api/image/preview',
      'POST /api/image/store',
      'GET /api/settings/get',
      'PUT /api/settings/store',
      'GET /api/documents',
      'GET /api/documents/view',
      'GET /api/report/summary',
      'POST /api/report/summary/print',
      // Extensions: QR payments (capability 15, docs/qr-payments.md).
      'POST /api/qrpayment/create',
      'GET /api/qrpayment',
      'GET /api/qrpayment/notifier',
      'GET /api/qrpayment/{id}',
      'POST /api/qrpayment/{id}/cancel',
      'POST /api/qrpayment/{id}/print',
      'GET /api/qrpayment/{id}/qr.png',
      'GET /api/qrpayment/{id}/events',
      'GET /api/events',
    ];
    // A PNG and an event stream are not JSON answers.
    const notJson = new Set(['get /api/qrpayment/{id}/qr.png', 'get /api/qrpayment/{id}/events']);
    const listed = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(expected.sort());
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops as Record<string, Json>)) {
        if (path.startsWith('/api/qrpayment')) {
          expect(op.tags, `${method} ${path}: marked as an extension`).toEqual(['qr-payments (extension)']);
          expect(op.description).toMatch(/^Extension/);
        }
        if (notJson.has(`${method} ${path}`)) continue;
        // The event stream (an extension) answers text/event-stream; everything else JSON.
        const ok =
          op.responses?.['200']?.content?.['application/json'] ??
          (path === '/api/events' ? op.responses?.['200']?.content?.['text/event-stream'] : undefined);
        expect(ok?.schema, `${method} ${path}: 200 schema`).toBeDefined();
        expect(mediaHasExamples(ok), `${method} ${path}: 200 examples`).toBe(true);
        expect(op.responses?.['500'], `${method} ${path}: error schema`).toBeDefined();
        if (method === 'post') {
          const body = op.requestBody?.content?.['application/json'];
          expect(body?.schema, `${method} ${path}: request schema`).toBeDefined();
          expect(mediaHasExamples(body), `${method} ${path}: request examples`).toBe(true);
        }
      }
    }
  });

  it('lists on every /api/ route each HTTP status the app can send it, and a 200 that can carry a failure admits its fields (ADR 0010)', () => {
    // What errorReply can answer on a route: the HTTP rules' own statuses, and the status of every
    // result code on that route (src/http/error-mapping.ts is the one place that decides both).
    const codes = allResultCodes().filter(({ code }) => code !== 0);
    const members = (schema: Json): Json[] => {
      const s = resolve(schema);
      const union = s.anyOf ?? s.oneOf;
      return Array.isArray(union) ? union.flatMap(members) : [s];
    };
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops as Record<string, Json>)) {
        const route = `${method.toUpperCase()} ${path}`;
        const sent = new Set<number>([
          ...PROTOCOL_STATUSES,
          ...codes.map(({ code }) => httpStatusFor(code, route)),
        ]);
        for (const status of sent) {
          expect(op.responses?.[String(status)], `${route}: HTTP ${status}`).toBeDefined();
        }
        // A failure answered with HTTP 200 (506 on document/get, 507 on store and cash): the 200
        // schema must take its error, errorMessage and a resultCode other than 0.
        const failuresAt200 = codes.filter(({ code }) => httpStatusFor(code, route) === 200);
        if (failuresAt200.length === 0) continue;
        const shapes = members(op.responses['200'].content['application/json'].schema);
        expect(
          shapes.some(
            (m) =>
              m.properties?.error &&
              m.properties?.errorMessage &&
              m.properties?.resultCode?.type === 'integer',
          ),
          `${route}: the 200 schema admits ${failuresAt200.map((c) => c.code).join(', ')}`,
        ).toBe(true);
      }
    }
  });

  it('VersionResponse and StatusResponse require swIdOrigin (ADR 0421: always answered)', () => {
    for (const name of ['VersionResponse', 'StatusResponse']) {
      const schema = doc.components.schemas[name];
      expect(schema.required, name).toContain('swIdOrigin');
      expect(schema.required, name).not.toContain('swId');
    }
  });

  it('marks the extensions to the API text as such', () => {
    expect(doc.paths['/api/offline/set-aside'].post['x-kasa-extension']).toBe(true);
    expect(doc.paths['/api/document/store'].post['x-kasa-extension']).toBeUndefined();
  });

  it('documents the Idempotency-Key header on store and cash', () => {
    for (const path of ['/api/document/store', '/api/cash']) {
      const params = (doc.paths[path].post.parameters ?? []) as Json[];
      expect(
        params.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
        path,
      ).toBe(true);
    }
  });
});
