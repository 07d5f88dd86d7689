import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SfsHarness, startSfsHarness } from '../../../test/support/sfs-harness.js';
import { receiptRequest } from '../../../test/support/sfs-requests.js';
import { hasXmlsec1, XMLSEC_MISSING, xmlsecVerifies } from '../../../test/support/xmlsec.js';
import { receiptRequestElement } from '../../adapters/tax-authority/soap-envelope.js';
import { signEnvelope } from '../../adapters/tax-authority/ws-security.js';
import { SfsSimulator, SIM_HISTORY_LIMIT, WSDL_PATH } from './sfs-simulator.js';
import { SIGNING_CERT_FILE } from './signing-identity.js';
import { MAX_BODY_BYTES } from './sim-http.js';

let h: SfsHarness;
let number = 5000;
beforeAll(async () => {
  h = await startSfsHarness();
});
afterAll(async () => h.close());

const signedPd = () => {
  const request = receiptRequest(h.merchant.signer, { number: String(++number) });
  return { request, xml: signEnvelope(receiptRequestElement(request), h.merchant.signer) };
};
const post = (xml: string, contentType = 'application/soap+xml; charset=UTF-8') =>
  fetch(h.sim.url, { method: 'POST', headers: { 'content-type': contentType }, body: xml });
const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${h.sim.baseUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe('SFS simulator HTTP surface', () => {
  it('answers 405 to a non-POST on the service and WSDL paths (the reachability probe), 404 elsewhere', async () => {
    const service = await fetch(h.sim.url);
    expect(service.status).toBe(405);
    expect(service.headers.get('allow')).toBe('POST');
    expect((await fetch(`${h.sim.baseUrl}${WSDL_PATH}`)).status).toBe(405);
    expect((await fetch(`${h.sim.baseUrl}/soap/services/v2`, { method: 'POST' })).status).toBe(404);
  });

  it('refuses its controls to a web page (Origin, Sec-Fetch-Site) with 403 and changes nothing (ADR 0428)', async () => {
    const before = (await control('GET', '/__sim/faults')).json;
    const fromPage = await fetch(`${h.sim.baseUrl}/__sim/offline`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      body: '{"ms": 60000}',
    });
    expect(fromPage.status).toBe(403);
    expect(await fromPage.text()).toContain('Origin: http://evil.example');
    // A page that rebound its name to 127.0.0.1 reads "same-origin"; still a page.
    const rebound = await fetch(`${h.sim.baseUrl}/__sim/received`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(rebound.status).toBe(403);
    expect((await control('GET', '/__sim/faults')).json).toEqual(before);
    expect(h.sim.offline).toBe(false);
    // Not a browser: allowed, as before.
    expect((await control('GET', '/__sim/received')).status).toBe(200);
  });

  it('answers 413 to a body over 1 MiB and reads the next request whole', async () => {
    const big = `${signedPd().xml}${' '.repeat(MAX_BODY_BYTES)}`;
    const refused = await post(big);
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe('Payload Too Large');
    const { xml, request } = signedPd();
    const accepted = await post(xml);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain(`RequestUuid="${request.header.Uuid}"`);
  });

  it('refuses another media type than application/soap+xml with 415', async () => {
    expect((await post(signedPd().xml, 'text/xml; charset=UTF-8')).status).toBe(415);
    expect((await post(signedPd().xml, 'application/soap+xml; charset=ISO-8859-2')).status).toBe(415);
  });

  it('answers a signed response that xmlsec1 verifies with the written signing certificate', async () => {
    const res = await post(signedPd().xml);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/soap+xml; charset=UTF-8');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.toString('utf8')).toMatch(/<ekasa:ReceiptData Id="O-[0-9A-F]{32}"\/>/);
    if (hasXmlsec1) expect(xmlsecVerifies(body, h.sim.signingCertPem)).toBe(true);
    else console.warn(XMLSEC_MISSING);
  });

  it('answers a Fault with HTTP 500, code in the v1 namespace, Reason in Slovak', async () => {
    const { xml } = signedPd();
    const res = await post(xml.replace('Dic="1234567890"', 'Dic="1234567899"'));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain(
      'xmlns:ekasa="http://financnasprava.sk/ekasa/schema/v1" ekasa:EkasaErrorCode="-10"',
    );
    expect(text).toContain('<soapenv:Text xml:lang="sk-SK">');
  });

  it('writes its signing certificate into the CA folder, issued by the CA, and reuses it on restart', async () => {
    const path = join(h.merchant.ca.dir, SIGNING_CERT_FILE);
    expect(h.sim.signingCertPath).toBe(path);
    const cert = new X509Certificate(readFileSync(path, 'utf8'));
    expect(cert.verify(new X509Certificate(h.merchant.ca.certPem).publicKey)).toBe(true);
    const second = await SfsSimulator.start({ caDir: h.merchant.ca.dir });
    expect(second.signingCertPem).toBe(h.sim.signingCertPem);
    await second.close();
  });
});

describe('what the simulator remembers (capability 13)', () => {
  it('remembers a registered receipt across a restart, as the SFS does: the same document gets the same Id', async () => {
    const { request, xml } = signedPd();
    const idOf = async (sim: SfsSimulator, body: string) => {
      const res = await fetch(sim.url, {
        method: 'POST',
        headers: { 'content-type': 'application/soap+xml; charset=UTF-8' },
        body,
      });
      return /<ekasa:ReceiptData Id="(O-[0-9A-F]{32})"/.exec(await res.text())?.[1];
    };
    const first = await idOf(h.sim, xml);
    expect(first).toBeDefined();
    const restarted = await SfsSimulator.start({ caDir: h.merchant.ca.dir });
    try {
      // A resend of the same document (new Uuid and signature, SendingCount 2, same data and PKP).
      const again = receiptRequest(h.merchant.signer, {
        number: request.data.ReceiptNumber,
        at: new Date(Date.parse(request.data.CreateDate)),
        sendingCount: 2,
      });
      expect(again.pkp).toBe(request.pkp);
      expect(await idOf(restarted, signEnvelope(receiptRequestElement(again), h.merchant.signer))).toBe(
        first,
      );
      // Another document under the number already taken is still refused.
      const other = receiptRequest(h.merchant.signer, {
        number: request.data.ReceiptNumber,
        at: new Date(Date.parse(request.data.CreateDate) + 1000),
      });
      const res = await fetch(restarted.url, {
        method: 'POST',
        headers: { 'content-type': 'application/soap+xml; charset=UTF-8' },
        body: signEnvelope(receiptRequestElement(other), h.merchant.signer),
      });
      expect(await res.text()).toContain('EkasaErrorCode="-900"');
    } finally {
      await restarted.close();
    }
  });

  it('starts empty, with a warning, when its memory file is unreadable (a power cut under synchronous=OFF)', async () => {
    const memoryFile = join(mkdtempSync(join(tmpdir(), 'kasa-sim-')), 'sfs-sim-memory.sqlite');
    writeFileSync(memoryFile, Buffer.alloc(4096, 0xa5));
    const warnings: string[] = [];
    const sim = await SfsSimulator.start({
      caDir: h.merchant.ca.dir,
      memoryFile,
      log: (line) => warnings.push(line),
    });
    try {
      expect(warnings.join('\n')).toMatch(/memory .*unreadable \(SQLITE_NOTADB\).*starts empty/);
      const { xml } = signedPd();
      const res = await fetch(sim.url, {
        method: 'POST',
        headers: { 'content-type': 'application/soap+xml; charset=UTF-8' },
        body: xml,
      });
      expect(await res.text()).toMatch(/<ekasa:ReceiptData Id="O-[0-9A-F]{32}"/);
    } finally {
      await sim.close();
    }
  }, 60_000);

  it(`keeps the history of the last ${SIM_HISTORY_LIMIT} requests only`, async () => {
    const sim = await SfsSimulator.start({ caDir: h.merchant.ca.dir, memoryFile: ':memory:' });
    try {
      for (let i = 0; i < SIM_HISTORY_LIMIT + 3; i++) {
        await fetch(sim.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
      }
      const history = sim.history();
      expect(history).toHaveLength(SIM_HISTORY_LIMIT);
      expect(history[0]?.seq).toBe(4);
      expect(history.at(-1)?.seq).toBe(SIM_HISTORY_LIMIT + 3);
    } finally {
      await sim.close();
    }
  }, 60_000);
});

describe('/__sim/ control endpoints', () => {
  it('queue a fault, list what arrived, and reset', async () => {
    expect((await control('POST', '/__sim/reset')).status).toBe(200);
    const queued = await control('POST', '/__sim/fault', { kind: 'soap-fault', code: -119, count: 1 });
    expect(queued.status).toBe(200);
    const { request, xml } = signedPd();
    const res = await post(xml);
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('EkasaErrorCode="-119"');
    expect((await post(signedPd().xml)).status).toBe(200);

    const { json } = await control('GET', '/__sim/received');
    const requests = json.requests as Array<Record<string, unknown>>;
    expect(requests.map((r) => [r.outcome, r.code ?? null, r.fault ?? null])).toEqual([
      ['rejected', -119, 'soap-fault'],
      ['accepted', null, null],
    ]);
    expect(requests[0]).toMatchObject({
      operation: 'RegisterReceipt',
      requestUuid: request.header.Uuid,
      receiptType: 'PD',
    });

    await control('POST', '/__sim/reset');
    expect(((await control('GET', '/__sim/received')).json.requests as unknown[]).length).toBe(0);
  });

  it('set latency and report pending faults', async () => {
    await control('POST', '/__sim/latency', { ms: 120, count: 1 });
    await control('POST', '/__sim/fault', { kind: 'garbage', count: 2 });
    const { json } = await control('GET', '/__sim/faults');
    expect(json).toMatchObject({ latency: { ms: 120, count: 1 }, faults: [{ kind: 'garbage', count: 2 }] });
    const started = performance.now();
    expect((await post(signedPd().xml)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    await post(signedPd().xml);
    h.sim.assertNoPendingFaults();
  });

  it('refuse a bad control body with 400', async () => {
    expect((await control('POST', '/__sim/fault', { kind: 'meteor' })).status).toBe(400);
    expect((await control('POST', '/__sim/fault', { kind: 'soap-fault' })).status).toBe(400);
    expect((await control('GET', '/__sim/nothing')).status).toBe(404);
  });

  it('go offline for a while: connections are refused, then served again on the same port', async () => {
    expect((await control('POST', '/__sim/offline', { ms: 300 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(h.sim.url)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await fetch(h.sim.url)).status).toBe(405);
  });
});
