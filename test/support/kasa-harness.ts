import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ImageIoOpener } from '../../src/adapters/chdu/image-io.js';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { composeKasa, type Kasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig, type ServeConfig } from '../../src/config/serve-config.js';
import type { ChduTarget, PrinterTarget } from '../../src/config/targets.js';
import type { ReceiptImageRenderer } from '../../src/core/ports/receipt-renderer.js';
import type { Scheduler } from '../../src/core/ports/scheduler.js';
import { VirtualPrinter } from '../../src/simulators/printer/virtual-printer.js';
import type { SfsSimulator } from '../../src/simulators/sfs/sfs-simulator.js';
import { ManualClock } from './merchant-register.js';

// biome-ignore lint/suspicious/noExplicitAny: response JSON read freely in assertions
export type Json = any;

export interface HarnessOptions {
  dataDir?: string;
  clock?: ManualClock;
  sfsTimeoutMs?: number;
  printer?: PrinterTarget;
  demo?: boolean;
  renderer?: ReceiptImageRenderer;
  /** Capacity of a new CHDÚ image in blocks (small values make it fill up). */
  capacityBlocks?: number;
  /** Image file operations seam (e.g. a disk that runs full: test/support/full-disk.ts). */
  imageIo?: ImageIoOpener;
  /** Folder of the high-water marks (default: a new temporary folder, never the real home). */
  markDir?: string;
  /** Further serve configuration (e.g. the --nop-* flags). */
  config?: Partial<ServeConfig>;
  /** Logger (default silent). */
  logger?: Logger;
  /** QR payment background timing. */
  qrJobs?: { tickMs?: number; pollWhilePendingMs?: number };
  /** Timers of background work (default: Node timers). */
  scheduler?: Scheduler;
  /** Another CHDÚ than the image in the data dir (e.g. a CHDU Lite emulator over TCP). */
  chdu?: ChduTarget;
  /** `--sw-id`. */
  swId?: string;
  /** The pause between print windows of a device printer (default: a timer). */
  printerSleep?: (ms: number) => Promise<void>;
  /** How long a stop waits for a writer still at work (ADR 0808; default 20 s). */
  stopWriterWaitMs?: number;
}

export interface Harness {
  kasa: Kasa;
  dataDir: string;
  clock: ManualClock;
  sim: SfsSimulator;
  printer: VirtualPrinter;
  /** POST JSON through the full HTTP stack in-process; returns status and parsed body. */
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Json }>;
  get(url: string): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

/**
 * A whole register in-process, as `kasa serve` composes it: image CHDÚ, journal + index, demo
 * merchant, the embedded SFS simulator on a loopback port, the virtual printer (in a temp data
 * dir). The clock is shared by kasa and the simulator and moves only when the test moves it.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kasa-e2e-'));
  const clock = options.clock ?? new ManualClock(new Date());
  const config = defaultServeConfig(dataDir, {
    port: 0,
    sfsTimeoutMs: options.sfsTimeoutMs ?? 1500,
    printer: options.printer ?? { kind: 'virtual' },
    chdu: options.chdu ?? {
      kind: 'image',
      path: join(dataDir, 'chdu.img'),
      ...(options.capacityBlocks ? { capacityBlocks: options.capacityBlocks } : {}),
    },
    demo: options.demo ?? true,
    markDir: options.markDir ?? mkdtempSync(join(tmpdir(), 'kasa-marks-')),
    logLevel: 'silent',
    ...options.config,
    swId: options.swId,
  });
  const kasa = await composeKasa(config, {
    clock,
    logger: options.logger ?? createLogger('silent'),
    ...(options.renderer ? { renderer: options.renderer } : {}),
    ...(options.imageIo ? { imageIo: options.imageIo } : {}),
    ...(options.qrJobs ? { qrJobs: options.qrJobs } : {}),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    ...(options.printerSleep ? { printerSleep: options.printerSleep } : {}),
    ...(options.stopWriterWaitMs === undefined ? {} : { stopWriterWaitMs: options.stopWriterWaitMs }),
  });
  await kasa.app.ready();
  // The simulators keep only their newest requests and jobs (flat memory, ADR 1102); the
  // acceptance tests check every request and job of their bounded runs (e.g. 1,000 resends).
  if (kasa.parts.sfsSimulator) kasa.parts.sfsSimulator.historyLimit = 20_000;
  if (kasa.parts.printer instanceof VirtualPrinter) kasa.parts.printer.historyLimit = 20_000;
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await kasa.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.json() as Json };
  };
  return {
    kasa,
    dataDir,
    clock,
    sim: kasa.parts.sfsSimulator!,
    printer: kasa.parts.printer as VirtualPrinter,
    post: (url, body, headers) => call('POST', url, body, headers),
    get: (url) => call('GET', url),
    close: () => kasa.close(),
  };
}

/** A simple valid PD request. */
export function pd(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'PD',
    amount: 7.45,
    documentEntries: [
      { name: 'Káva', price: 2.5, quantity: 2, vatRate: 'VAT_23', itemType: 'SALE' },
      { name: 'Rožok', price: 0.15, quantity: 3, vatRate: 'VAT_5', itemType: 'SALE' },
      { name: 'Fľaša', price: 2, quantity: 1, vatRate: 'VAT_0', itemType: 'PACKING' },
    ],
    payments: { Hotovosť: 7.45 },
    ...overrides,
  };
}
