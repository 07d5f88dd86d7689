import { describe, expect, it } from 'vitest';
import {
  contentTypeRefusal,
  crossSiteRefusal,
  hostRefusal,
  requestRefusal,
  targetRefusal,
} from './request-rules.js';

const allowedHosts = new Set(['localhost', '127.0.0.1', '::1']);

describe('request target (ADR 0600)', () => {
  it('accepts plain paths with any query, refuses every other spelling', () => {
    for (const ok of [
      '/api/cash',
      '/api/document/store?x=%2F&y=1',
      '/docs/static/index.html',
      '/admin/',
      '/',
    ]) {
      expect(targetRefusal(ok), ok).toBeUndefined();
    }
    for (const bad of [
      '/%61pi/cash',
      '/api/c%61sh',
      '/api%2Fcash',
      '/api/cash#x',
      'http://127.0.0.1/api/cash',
      '*',
      '',
      'api/cash',
      '/api/čaj',
    ]) {
      expect(targetRefusal(bad)?.httpStatus, bad).toBe(400);
    }
  });

  it('runs before the token, so an encoded path is refused whatever the Authorization', () => {
    const facts = {
      method: 'POST',
      httpVersion: '1.1',
      routedPath: '/api/cash',
      headers: { host: '127.0.0.1' },
      rawHeaders: ['Host', '127.0.0.1'],
    };
    expect(
      requestRefusal({ allowedHosts, token: 'tok' }, { ...facts, rawUrl: '/%61pi/cash' })?.httpStatus,
    ).toBe(400);
    expect(
      requestRefusal({ allowedHosts, token: 'tok' }, { ...facts, rawUrl: '/api/cash' })?.httpStatus,
    ).toBe(401);
    expect(
      requestRefusal(
        { allowedHosts, token: 'tok' },
        { ...facts, rawUrl: '/api/cash', headers: { ...facts.headers, authorization: 'Bearer tok' } },
      ),
    ).toBeUndefined();
  });
});

describe('token', () => {
  it('guards /api/ and the API docs (/docs*), not the admin page', () => {
    const facts = (path: string, authorization?: string) => ({
      method: 'GET',
      httpVersion: '1.1',
      rawUrl: path,
      routedPath: path,
      headers: { host: '127.0.0.1', ...(authorization ? { authorization } : {}) },
      rawHeaders: ['Host', '127.0.0.1'],
    });
    for (const path of [
      '/api/openapi.json',
      '/docs',
      '/docs/',
      '/docs/json',
      '/docs/yaml',
      '/docs/static/x.js',
    ]) {
      expect(requestRefusal({ allowedHosts, token: 'tok' }, facts(path))?.httpStatus, path).toBe(401);
      expect(requestRefusal({ allowedHosts, token: 'tok' }, facts(path, 'Bearer tok')), path).toBeUndefined();
      expect(requestRefusal({ allowedHosts }, facts(path)), path).toBeUndefined();
    }
    for (const path of ['/', '/admin/', '/admin/admin.js', '/docsx', '/documents']) {
      expect(requestRefusal({ allowedHosts, token: 'tok' }, facts(path)), path).toBeUndefined();
    }
  });
});

describe('Host (ADR 0601)', () => {
  it('accepts one allowed host with an optional port, in any case', () => {
    for (const ok of ['127.0.0.1', '127.0.0.1:13083', 'LOCALHOST:1', '[::1]', '[::1]:65535', 'localhost.']) {
      // A trailing dot is another name; it is simply not allowed, never malformed.
      const refusal = hostRefusal(ok, allowedHosts);
      if (ok === 'localhost.') expect(refusal?.httpStatus, ok).toBe(421);
      else expect(refusal, ok).toBeUndefined();
    }
  });

  it('refuses a list, a user part, spaces, a bad port or bracket with 400 naming Host; a foreign name with 421', () => {
    for (const bad of [
      '127.0.0.1:45713, evil.com',
      '127.0.0.1, evil.com',
      'evil.com, 127.0.0.1',
      'user@127.0.0.1',
      '127.0.0.1 :13083',
      '127.0.0.1:',
      '127.0.0.1:99999',
      '127.0.0.1:1a',
      '[::1',
      '[::1]x',
      '::1',
      '',
    ]) {
      const refusal = hostRefusal(bad, allowedHosts);
      expect(refusal?.httpStatus, bad).toBe(400);
      expect(refusal?.details, bad).toMatchObject({ field: 'Host' });
    }
    expect(hostRefusal('evil.com:13083', allowedHosts)?.httpStatus).toBe(421);
  });

  const facts = (httpVersion: string, rawHeaders: string[]) => {
    const headers: Record<string, string> = {};
    // As Node reads them: the first Host line wins.
    for (let i = 0; i < rawHeaders.length; i += 2)
      headers[rawHeaders[i]!.toLowerCase()] ??= rawHeaders[i + 1]!;
    return {
      method: 'GET',
      httpVersion,
      rawUrl: '/api/version',
      routedPath: '/api/version',
      headers,
      rawHeaders,
    };
  };

  it('refuses Host sent twice with 400 naming Host, whatever the names and their spelling (RFC 9112 §3.2)', () => {
    for (const rawHeaders of [
      ['Host', '127.0.0.1', 'Host', 'evil.com'],
      ['Host', '127.0.0.1', 'host', '127.0.0.1'],
      ['HOST', 'localhost', 'Accept', '*/*', 'hOsT', 'evil.com'],
    ]) {
      for (const version of ['1.1', '1.0']) {
        const refusal = requestRefusal({ allowedHosts }, facts(version, rawHeaders));
        expect(refusal?.httpStatus, `${version} ${rawHeaders}`).toBe(400);
        expect(refusal?.details, `${version} ${rawHeaders}`).toMatchObject({ field: 'Host' });
      }
    }
    expect(
      requestRefusal({ allowedHosts }, facts('1.1', ['Host', '127.0.0.1', 'X-Host', 'evil.com'])),
    ).toBeUndefined();
  });

  it('requires Host on HTTP/1.1 only: HTTP/1.0 without it passes (ADR 0427)', () => {
    expect(requestRefusal({ allowedHosts }, facts('1.1', []))?.httpStatus).toBe(400);
    expect(requestRefusal({ allowedHosts }, facts('1.0', []))).toBeUndefined();
    expect(requestRefusal({ allowedHosts }, facts('1.0', ['Host', 'evil.com']))?.httpStatus).toBe(421);
  });
});

describe('other sites (ADR 0601)', () => {
  it('same origin, a typed URL and clients without browser headers pass', () => {
    for (const headers of [
      { host: '127.0.0.1:13083', origin: 'http://127.0.0.1:13083' },
      { host: 'LOCALHOST:13083', origin: 'http://localhost:13083' },
      { host: '[::1]:13083', origin: 'http://[::1]:13083', 'sec-fetch-site': 'same-origin' },
      { host: '127.0.0.1:13083', 'sec-fetch-site': 'none' },
      { host: '127.0.0.1:13083' },
    ]) {
      expect(crossSiteRefusal(headers), JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('other origins, null, other ports and cross-site fetch metadata are refused', () => {
    for (const headers of [
      { host: '127.0.0.1:13083', origin: 'http://127.0.0.1:8080' },
      { host: '127.0.0.1:13083', origin: 'http://localhost:13083' },
      { host: '127.0.0.1:13083', origin: 'null' },
      { host: '127.0.0.1:13083', origin: 'file://' },
      { host: '127.0.0.1:13083', origin: 'http://127.0.0.1:13083.evil.example' },
      { origin: 'http://127.0.0.1:13083' },
      { host: '127.0.0.1:13083', 'sec-fetch-site': 'same-site' },
      { host: '127.0.0.1:13083', 'sec-fetch-site': 'cross-site', origin: 'http://127.0.0.1:13083' },
    ]) {
      expect(crossSiteRefusal(headers)?.httpStatus, JSON.stringify(headers)).toBe(403);
    }
  });
});

describe('Content-Type (API text, ADR 0601)', () => {
  it('is required on a body only, and must be JSON in UTF-8', () => {
    expect(contentTypeRefusal({})).toBeUndefined();
    expect(contentTypeRefusal({ 'content-length': '0' })).toBeUndefined();
    expect(contentTypeRefusal({ 'content-length': '2', 'content-type': 'application/json' })).toBeUndefined();
    expect(
      contentTypeRefusal({
        'transfer-encoding': 'chunked',
        'content-type': 'application/json;charset="UTF-8"',
      }),
    ).toBeUndefined();
    for (const type of [
      undefined,
      'text/plain',
      'application/json-patch+json',
      'application/json; charset=utf-16',
      'text/json',
    ]) {
      const e = contentTypeRefusal({ 'content-length': '2', ...(type ? { 'content-type': type } : {}) });
      expect(e?.httpStatus, type).toBe(415);
      expect(e?.resultCode).toBe(701);
    }
    expect(contentTypeRefusal({ 'transfer-encoding': 'chunked' })?.httpStatus).toBe(415);
  });
});
