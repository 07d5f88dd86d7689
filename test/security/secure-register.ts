import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { composeKasa, type Kasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig, type ServeConfig } from '../../src/config/serve-config.js';

export const TOKEN = 'tok-Security-Test-4417';

/**
 * A register composed as `kasa serve` does (embedded SFS simulator, image CHDÚ, virtual printer,
 * demo merchant), with the given overrides — by default with `--token`.
 */
export async function secureRegister(
  overrides: Partial<ServeConfig> = {},
): Promise<Kasa & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kasa-sec-'));
  const kasa = await composeKasa(
    defaultServeConfig(dataDir, {
      port: 0,
      sfsTimeoutMs: 1500,
      logLevel: 'silent',
      token: TOKEN,
      ...overrides,
    }),
    { logger: createLogger('silent') },
  );
  await kasa.app.ready();
  return Object.assign(kasa, { dataDir });
}

/** Bodies that would do real work if a refused request were executed after all. */
export function bodyFor(method: string, url: string): string | undefined {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  switch (url) {
    case '/api/document/store':
      return JSON.stringify({
        type: 'PD',
        amount: 1,
        documentEntries: [{ name: 'Rožok', price: 1, quantity: 1, vatRate: 'VAT_5', itemType: 'SALE' }],
        payments: { Hotovosť: 1 },
      });
    case '/api/cash':
      return JSON.stringify({ amount: 1 });
    default:
      return '{}';
  }
}

/** A concrete path for a declared route path (`/docs/static/*` → `/docs/static/index.html`). */
export function concretePath(url: string): string {
  return url.replace(/\*$/, 'index.html').replace(/:([A-Za-z]+)/g, 'x');
}
