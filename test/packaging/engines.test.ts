import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  dev?: boolean;
  optional?: boolean;
}
const lock = (await import(join(repoRoot, 'package-lock.json'), { with: { type: 'json' } })).default as {
  packages: Record<string, LockEntry>;
};
const pkg = (await import(join(repoRoot, 'package.json'), { with: { type: 'json' } })).default as {
  engines: { node: string };
};

describe('engines and the dependency tree agree (ADR 0801)', () => {
  const declared = semver.minVersion(pkg.engines.node)!.version;

  it('every locked package accepts the oldest Node kasa declares and the Node running the tests', () => {
    // What npm checks for EBADENGINE: each package's engines.node against the running Node.
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || range === undefined) continue;
      for (const node of [declared, process.versions.node]) {
        if (!semver.satisfies(node, range))
          refused.push(`${path}@${entry.version} wants node ${range}, not ${node}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('fastify inject with cookies works on the pinned cookie (light-my-request)', async () => {
    const app = Fastify();
    app.get('/c', async (req) => ({ cookie: req.headers.cookie }));
    const res = await app.inject({ method: 'GET', url: '/c', cookies: { till: '1', shop: 'Košice' } });
    expect(res.json()).toEqual({ cookie: 'till=1; shop=Ko%C5%A1ice' });
    await app.close();
  });

  it('@fastify/static serves files and RFC 5987 download names on the pinned content-disposition', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-static-'));
    writeFileSync(join(dir, 'a.txt'), 'hello');
    const app = Fastify();
    await app.register(fastifyStatic, { root: dir });
    app.get('/dl', (_req, reply) => reply.download('a.txt', 'účtenka.txt'));
    expect((await app.inject({ method: 'GET', url: '/a.txt' })).body).toBe('hello');
    const dl = await app.inject({ method: 'GET', url: '/dl' });
    expect(dl.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]*tenka\.txt"; filename\*=UTF-8''%C3%BA%C4%8Dtenka\.txt$/,
    );
    await app.close();
  });
});
