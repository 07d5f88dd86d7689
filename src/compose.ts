import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createLogger } from './adapters/logging/logger.js';
import { UsageError } from './cli/exit.js';
import { composeChduStorage } from './compose-chdu.js';
import { composeMerchant } from './compose-merchant.js';
import type { ServeConfig } from './config/serve-config.js';
import { describeChduTarget, describePrinterTarget } from './config/targets.js';
import { systemClock } from './core/ports/clock.js';
import { Readiness, RegisterStatus } from './core/services/register-status.js';
import { WriteLock } from './core/services/write-lock.js';
import { buildHttpApp, type KasaApp } from './http/app.js';
import { adminRoutes } from './http/routes/admin.js';
import { systemRoutes, type VersionInfo } from './http/routes/system.js';

/** The running register: the HTTP app and everything behind it. */
export interface Kasa {
  app: KasaApp;
  logger: Logger;
  targets: { chdu: string; sfs: string; printer: string };
  close(): Promise<void>;
}

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function readPackageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The commit the running code comes from, when it runs from a git checkout. */
function readBuildCommit(): string | undefined {
  try {
    const head = readFileSync(join(packageRoot, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head.slice(0, 12);
    const refPath = join(packageRoot, '.git', head.slice(5));
    return existsSync(refPath) ? readFileSync(refPath, 'utf8').trim().slice(0, 12) : undefined;
  } catch {
    return undefined;
  }
}

/** Printers with an adapter in this version (DECISIONS 12: anything else is an exit-2 error). */
const AVAILABLE_PRINTERS = new Set(['virtual', 'none']);

/**
 * The ONLY place that picks real adapters vs simulators and wires the use cases to the HTTP app.
 */
export async function composeKasa(
  config: ServeConfig,
  logger: Logger = createLogger(config.logLevel),
): Promise<Kasa> {
  if (!AVAILABLE_PRINTERS.has(config.printer.kind)) {
    throw new UsageError(
      `--printer ${describePrinterTarget(config.printer)}: this printer adapter is not available in this version (use virtual or none)`,
    );
  }
  mkdirSync(config.dataDir, { recursive: true });

  const version = readPackageVersion();
  const buildCommit = readBuildCommit();
  const chduName = config.chdu.kind === 'image' ? 'kasa image CHDU' : 'CHDU Lite';
  // SFS spec §2.3: SwId = SHA-1 over `maker|product|CHDÚ name|product version|CHDÚ version` (UTF-8).
  const swId = createHash('sha1')
    .update(`kasa|kasa|${chduName}|${version}|1.3`, 'utf8')
    .digest('hex')
    .toUpperCase();
  const versionInfo: VersionInfo = {
    product: 'kasa',
    version,
    apiVersion: '1.7',
    swId,
    ...(buildCommit ? { buildCommit } : {}),
    nodeVersion: process.version,
  };

  const readiness = new Readiness();
  const status = new RegisterStatus(readiness);
  const clock = systemClock;
  const lock = new WriteLock();

  const storage = await composeChduStorage({ dataDir: config.dataDir, chdu: config.chdu, clock });
  readiness.add(storage.check);
  status.addProbe(storage.check.statusProbe());
  let merchant: Awaited<ReturnType<typeof composeMerchant>>;
  try {
    merchant = await composeMerchant({
      dataDir: config.dataDir,
      journal: storage.journal,
      index: storage.index,
      clock,
      lock,
      readiness,
      status,
      check: storage.check,
      demo: config.demo,
      logger,
    });
  } catch (e) {
    await storage.close();
    throw e;
  }

  const app = await buildHttpApp({
    logger,
    readiness,
    token: config.token,
    host: config.host,
    version,
    routes: [
      systemRoutes({ version: () => versionInfo, status }),
      storage.routes,
      merchant.routes,
      adminRoutes(readFileSync(join(packageRoot, 'src', 'web', 'admin.html'), 'utf8')),
    ],
  });

  return {
    app,
    logger,
    targets: {
      chdu: describeChduTarget(config.chdu),
      sfs: config.sfsUrl ?? 'embedded simulator',
      printer: describePrinterTarget(config.printer),
    },
    async close() {
      await app.close();
      await storage.close();
    },
  };
}
