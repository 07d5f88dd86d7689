import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('logger', () => {
  it('redacts secret-named fields at any depth', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger('info', sink as never);
    log.info(
      {
        req: { body: { keyStorePassword: 'hunter2-secret', nested: [{ privateKeyPassword: 'pk-secret' }] } },
        token: 't0k3n-value',
        apiKey: 'api-key-value',
        signingKey: 'signing-key-value',
        credentials: { user: 'u', secret: 'cred-value' },
        authenticationData: '<AuthData>auth-data-value</AuthData>',
      },
      'storing',
    );
    const text = lines.join('');
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('pk-secret');
    for (const secret of [
      't0k3n-value',
      'api-key-value',
      'signing-key-value',
      'cred-value',
      'auth-data-value',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(text).req.body.keyStorePassword).toBe('[REDACTED]');
  });
});
