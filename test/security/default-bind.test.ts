import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServeChild } from '../support/serve-child.js';

/** Local addresses of TCP sockets listening on `port`, from the kernel's table (/proc/net/tcp, tcp6). */
function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [hexAddress, hexPort] = local!.split(':');
      if (state !== '0A' || Number.parseInt(hexPort!, 16) !== port) continue; // 0A = LISTEN
      out.push(
        hexAddress!.length === 8
          ? hexAddress!
              .match(/../g)!
              .reverse()
              .map((b) => Number.parseInt(b, 16))
              .join('.')
          : `ipv6:${hexAddress}`,
      );
    }
  }
  return out;
}

const canConnect = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, host, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe('default bind address', () => {
  it('kasa serve with no --host listens on 127.0.0.1 only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-bind-'));
    const serve = await startServeChild(['--port', '0', '--data-dir', dataDir, '--log-level', 'warn']);
    try {
      const url = new URL(serve.url);
      expect(url.hostname).toBe('127.0.0.1');
      const port = Number(url.port);
      const addresses = listeningAddresses(port);
      if (addresses.length > 0) expect(addresses).toEqual(['127.0.0.1']);
      else console.warn('skipped the kernel check: /proc/net/tcp is not readable here');
      expect(await canConnect('127.0.0.1', port)).toBe(true);
      // Not reachable through any other address of this machine.
      const others = Object.values(networkInterfaces())
        .flatMap((list) => list ?? [])
        .filter((a) => a.family === 'IPv4' && !a.internal)
        .map((a) => a.address);
      for (const address of others) expect(await canConnect(address, port), address).toBe(false);
    } finally {
      await serve.stop();
    }
  });
});
