import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { FileBackupLog } from '../adapters/backup/file-backup-log.js';
import type { ImageIoOpener } from '../adapters/chdu/image-io.js';
import { createLogger } from '../adapters/logging/logger.js';
import { realSleep, type Sleep } from '../adapters/printer/print-pacing.js';
import type { ServeConfig } from '../config/serve-config.js';
import { describeChduTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import { backlogBlocker, offlineBacklogProbe } from '../core/offline/backlog-probe.js';
import { lastRequestRefusal } from '../core/offline/last-request.js';
import type { OfflineSender } from '../core/offline/offline-sender.js';
import { type Clock, type IdSource, systemClock } from '../core/ports/clock.js';
import type { Journal } from '../core/ports/journal.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import type { MerchantIdentityRow } from '../core/ports/merchant-index.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';
import type { ReceiptImageRenderer } from '../core/ports/receipt-renderer.js';
import type { RegisterEvents } from '../core/ports/register-events.js';
import type { Scheduler } from '../core/ports/scheduler.js';
import { RESULT_CODES } from '../core/result-codes.js';
import { backupProbe } from '../core/services/backup-status.js';
import type { ConsistencyState } from '../core/services/consistency-check.js';
import { unprintedStatusRefusal } from '../core/services/documents/unprinted-status.js';
import { locationProbe } from '../core/services/location/location-probe.js';
import { printerInfo } from '../core/services/printing/printer-info.js';
import { printerProbe } from '../core/services/printing/printer-probe.js';
import { Readiness, RegisterStatus } from '../core/services/register-status.js';
import { settingsView } from '../core/services/settings/get-settings.js';
import { StoreSettings } from '../core/services/settings/store-settings.js';
import { SwIdSource } from '../core/services/sw-id-source.js';
import { WriteLock } from '../core/services/write-lock.js';
import { LiveSettings } from '../core/settings/live-settings.js';
import { buildHttpApp, type KasaApp } from '../http/app.js';
import { chduRoutes } from '../http/routes/chdu.js';
import { settingsRoutes } from '../http/routes/settings.js';
import { systemRoutes, type VersionInfo } from '../http/routes/system.js';
import type { NopSimulator } from '../simulators/nop/nop-simulator.js';
import type { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';
import { composeAdmin } from './admin.js';
import { allowedHostNames } from './allowed-host-names.js';
import { composeBackground } from './background.js';
import { readBuildCommit } from './build-commit.js';
import { composeChduStorage } from './chdu-storage.js';
import { composeDocuments, cryptoIds, pngRenderer } from './documents.js';
import { composeEvents, type EventsOptions } from './events.js';
import { composeMerchant } from './merchant.js';
import { composeOffline } from './offline.js';
import { type NopConnection, openPaymentNotifier } from './open-payment-notifier.js';
import { checkPrinterTarget, openPrinter } from './open-printer.js';
import { openTaxAuthority, type SfsConnection } from './open-tax-authority.js';
import { type PrinterSettingsDeps, printerSettingsApplier } from './printer-settings.js';
import { composePrinting } from './printing.js';
import { composeQrPayments, type QrPaymentsPart } from './qr-payments.js';
import { settingsBaseline } from './settings-baseline.js';
import {
  type SfsSettingsDeps,
  sfsConnectionChanged,
  sfsSettingsApplier,
  simulatorRefusedBy,
} from './sfs-settings.js';
import { startPrinter, startSfs } from './start-devices.js';
import { type OpenedPrinter, SwappablePrinter } from './swappable-printer.js';
import { SwappableTaxAuthority } from './swappable-tax-authority.js';
import { warmReceiptImageOnListen } from './warm-receipt-image.js';

/** How long close() waits for requests in flight before it cuts the remaining connections. */
const CLOSE_GRACE_MS = 10_000;
/**
 * How long after close() began it waits for a writer still at work (a request whose connection
 * was cut, the sender's last record) before it closes the CHDÚ, printer and SFS under it. The
 * unit file's `TimeoutStopSec=30` leaves the rest for closing (ADR 0808).
 */
const STOP_WRITER_WAIT_MS = 20_000;
/** Past that time, how long the writer still gets once its SFS send has ended (ADR 0808). */
const AFTER_SFS_WRITER_WAIT_MS = 5_000;

/** The running register: the HTTP app and everything behind it. */
export interface Kasa {
  app: KasaApp;
  logger: Logger;
  targets: { chdu: string; sfs: string; printer: string; nop: string };
  /**
   * The simulators and devices, for tests and the admin page (fault injection). `printer` and
   * `sfsSimulator` are the ones in force (the settings may swap them).
   */
  parts: {
    readonly printer: ReceiptPrinter;
    readonly sfsSimulator: SfsSimulator | undefined;
    journal: Journal;
    index: JournalIndex;
    /** The background offline sender (tests read its state). */
    sender: OfflineSender;
    /** The settings in force (capability 12). */
    settings: LiveSettings;
    /** The events port (ADR 0805): background work publishes here. */
    events: RegisterEvents;
    nopSimulator?: NopSimulator;
    qrPayments: QrPaymentsPart;
  };
  close(): Promise<void>;
}

/** Seams tests replace (a fixed or stepping clock, predictable ids, quiet logs). */
export interface ComposeOverrides {
  logger?: Logger;
  clock?: Clock;
  ids?: IdSource;
  /** Electronic receipt renderer (default: the PNG renderer at the printer's width). */
  renderer?: ReceiptImageRenderer;
  /** Image CHDÚ file operations (tests make the disk run full: ADR 0116). */
  imageIo?: ImageIoOpener;
  /** Timers of background work (default: Node timers). */
  scheduler?: Scheduler;
  /** Event watcher and stream timings (tests shorten them). */
  events?: Pick<
    EventsOptions,
    'watchIntervalMs' | 'capacityIntervalMs' | 'heartbeatMs' | 'maxClients' | 'window'
  >;
  /** The pause between print windows of a device printer (default: a timer). */
  printerSleep?: Sleep;
  /** QR payment background timing (tests shorten it). */
  qrJobs?: { tickMs?: number; pollWhilePendingMs?: number };
  /** How long a stop waits for a writer still at work (default 20 s, ADR 0808; tests shorten it). */
  stopWriterWaitMs?: number;
}

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function readPackageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Demo mode creates a demo merchant, which a CHDÚ keeps for ever (its DIČ then owns it). It is
 * only for the self-contained register: the image-file CHDÚ and the embedded SFS simulator. With a
 * CHDU Lite device or a real SFS it stays off (ADR 0006).
 */
function demoAllowed(config: ServeConfig, logger: Logger): boolean {
  if (!config.demo) return false;
  const reason =
    config.chdu.kind !== 'image'
      ? 'a CHDU Lite device is configured'
      : config.sfsUrl !== undefined
        ? '--sfs-url is given'
        : undefined;
  if (reason === undefined) return true;
  logger.info(`demo mode is off because ${reason}: load the merchant with POST /api/merchant/store`);
  return false;
}

/**
 * `--no-demo` (or `KASA_NO_DEMO`), and `--chdu` (`KASA_CHDU`) naming a CHDU Lite device, say this
 * is a real register. Without an SFS URL — flag, variable or stored setting — it would send every
 * document to the embedded simulator (which rejects a real merchant's, -13, and seems to register
 * a test merchant's), so the start is refused (exit 2) unless `--sfs-sim` asks for the simulator.
 * Composed configs (no `fixedBy`: tests, benches) pick the simulator by leaving `sfsUrl` out.
 *
 * `unread`: why the settings stored in the CHDÚ may be unknown, if so. A device that is not
 * connected (200) — one that appears late at boot — fails the start with exit 1, which the service
 * restarts (a bounded number of times: packaging/kasa.service), instead of exit 2, which it does
 * not: nothing is wrong with the flags until the device has been read. A device that answers but
 * cannot be read (full, locked, broken, a journal that does not verify) stays exit 2: starting
 * again does not help. Neither offers `--sfs-sim`: once chosen, the simulator would stay chosen
 * after a stored real SFS was read.
 */
function simulatorRefusal(
  config: ServeConfig,
  sfsUrl: string | null | undefined,
  unread?: { message: string; notConnected: boolean },
): Error | undefined {
  const refusedBy = simulatorRefusedBy(config);
  if (refusedBy === undefined || (sfsUrl ?? undefined) !== undefined) return undefined;
  if (unread !== undefined) {
    const cause = unread.message.replace(/\.$/, '');
    if (unread.notConnected) {
      return new Error(
        `${refusedBy} is given and names no SFS, and the CHDÚ did not answer at start (${cause}), so an SFS stored in it is not known yet: kasa stops with exit 1 (the service tries again). Connect the device; or set --sfs-url and --sfs-trust (KASA_SFS_URL, KASA_SFS_TRUST; docs/install.md)`,
      );
    }
    return new UsageError(
      `${refusedBy} is given and names no SFS, and the CHDÚ could not be read at start (${cause}), so an SFS stored in it is not known: see docs/chdu.md for the device, or set --sfs-url and --sfs-trust (KASA_SFS_URL, KASA_SFS_TRUST; docs/install.md)`,
    );
  }
  return new UsageError(
    `${refusedBy} is given but no SFS: set --sfs-url and --sfs-trust (KASA_SFS_URL, KASA_SFS_TRUST; docs/install.md), or --sfs-sim (KASA_SFS_SIM=true) to send to the embedded SFS simulator`,
  );
}

/** Why the index may not hold the CHDÚ's stored settings: the check failed before it synced it. */
function unreadSettings(state: ConsistencyState): { message: string; notConnected: boolean } | undefined {
  const cause = state.ok ? undefined : state.cause;
  if (!cause || !['start', 'chdu', 'journal', 'index'].includes(cause.check)) return undefined;
  return { message: cause.message, notConnected: cause.resultCode === RESULT_CODES.CHDU_NOT_CONNECTED.code };
}

/**
 * The ONLY place that picks real adapters vs simulators and wires the use cases to the HTTP app.
 */
export async function composeKasa(config: ServeConfig, overrides: ComposeOverrides = {}): Promise<Kasa> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  // A new image CHDÚ holds no stored SFS setting: refuse before anything is written (ADR 0006).
  // A CHDU Lite device may hold one, so it is read first (below); nothing is written to it then.
  if (config.chdu.kind === 'image' && !existsSync(config.chdu.path)) {
    const refusal = simulatorRefusal(config, config.sfsUrl);
    if (refusal) throw refusal;
  }
  mkdirSync(config.dataDir, { recursive: true });

  const version = readPackageVersion();
  const buildCommit = readBuildCommit();
  const versionInfo: VersionInfo = {
    product: 'kasa',
    version,
    apiVersion: '1.7',
    ...(buildCommit ? { buildCommit } : {}),
    nodeVersion: process.version,
  };

  const readiness = new Readiness();
  const status = new RegisterStatus(readiness);
  const clock = overrides.clock ?? systemClock;
  const ids = overrides.ids ?? cryptoIds;
  const lock = new WriteLock();
  // ADR 0808: a stop cuts the printers' pacing pauses short, so a paced print ends in seconds.
  const pacing = stoppablePauses(overrides.printerSleep ?? realSleep);

  // Everything that can refuse the flags runs before anything is written into the CHDÚ: a bad
  // --sfs-url/--sfs-trust must not leave a demo merchant behind in a storage that keeps it for ever.
  // Filled once the storage is open: the certificate of the merchant in force, for the SFS status.
  let currentCertificate: () => string | undefined = () => undefined;
  let identityHistory: () => MerchantIdentityRow[] = () => [];
  // `--printer chdu` prints through the CHDÚ, so it is opened once the CHDÚ is (capability 11).
  checkPrinterTarget(config.printer, config.chdu);
  // The printer and SFS of the configuration (a flag's, or the defaults) are opened now, so a flag
  // that cannot work ends the start (exit 2) before the CHDÚ exists; once the CHDÚ is open, stored
  // settings that name another printer or SFS replace them (ADR 1004).
  const early =
    config.printer.kind === 'chdu'
      ? undefined
      : await openPrinter(config.printer, { dataDir: config.dataDir, sleep: pacing.sleep });
  const sfsDeps: SfsSettingsDeps = {
    config,
    clock,
    merchantCertificate: () => currentCertificate(),
    identityHistory: () => identityHistory(),
    warn: (line) => logger.warn(line),
  };
  let earlySfs: SfsConnection | undefined;
  const demo = demoAllowed(config, logger);
  let nop: NopConnection | undefined;
  let storage: Awaited<ReturnType<typeof composeChduStorage>>;
  try {
    earlySfs = await openTaxAuthority(
      config,
      clock,
      sfsDeps.merchantCertificate,
      sfsDeps.identityHistory,
      sfsDeps.warn,
    );
    // ADR 0904: demo mode embeds the NOP simulator like the SFS one.
    nop = await openPaymentNotifier(config, demo, clock);
    storage = await composeChduStorage({
      dataDir: config.dataDir,
      chdu: config.chdu,
      markDir: config.markDir,
      clock,
      log: logger,
      ...(overrides.imageIo ? { imageIo: overrides.imageIo } : {}),
    });
  } catch (e) {
    await early?.close();
    await earlySfs?.close();
    await nop?.close();
    throw e;
  }
  // Capability 12: the settings in force — flags fixed, else stored in the CHDÚ, else the configuration.
  const { baseline, fixed } = settingsBaseline(config, { qrDemo: nop.demoDefaults });
  const settings = new LiveSettings({ baseline, fixed, stored: () => storage.index.settings() });
  const initial = settings.current();
  // The stored settings are the index's, replayed from the CHDÚ by the check's first run (reads
  // only: no block is written before this point, on an image or a CHDU Lite device alike).
  const refusal = simulatorRefusal(config, initial.sfsUrl, unreadSettings(storage.check.state()));
  if (refusal) {
    await early?.close().catch(() => undefined);
    await earlySfs.close().catch(() => undefined);
    await nop.close();
    await storage.close();
    throw refusal;
  }
  const printerDeps: PrinterSettingsDeps = {
    dataDir: config.dataDir,
    chduTarget: config.chdu,
    chdu: { chdu: storage.chdu, journal: storage.journal },
    sleep: pacing.sleep,
  };
  let printer: SwappablePrinter;
  let sfs: SwappableTaxAuthority;
  let opened: OpenedPrinter | undefined;
  try {
    opened = await startPrinter(baseline, initial, printerDeps, early, logger);
    const connection = sfsConnectionChanged(baseline, initial) ? await startSfs(initial, sfsDeps) : earlySfs;
    if (connection !== earlySfs) await earlySfs.close();
    printer = new SwappablePrinter(opened, () => {
      const s = settings.current();
      return { windowSize: s.printWindowSize, printDelay: s.printDelay };
    });
    sfs = new SwappableTaxAuthority(connection);
  } catch (e) {
    await (opened?.printer ?? early)?.close().catch(() => undefined);
    await earlySfs.close().catch(() => undefined);
    await nop.close();
    await storage.close();
    throw e;
  }
  /** `afterSfs`: what runs once the SFS connection is closed, before the printer and the CHDÚ. */
  const closeAll = async (afterSfs?: () => Promise<void>): Promise<void> => {
    await nop.close();
    await sfs.close();
    await afterSfs?.();
    await printer.close();
    await storage.close();
  };
  readiness.add(storage.check);
  status.addProbe(storage.check.statusProbe());
  // SFS spec §2.3, ADR 0421: the certified SwId when given, else derived from the actual CHDÚ.
  const chdu = storage.chdu;
  const swIds = new SwIdSource({
    configured: config.swId,
    software: { manufacturer: 'kasa', product: 'kasa', version },
    chdu: { name: chdu.model ?? 'CHDU', version: () => chdu.firmwareVersion() },
  });
  storage.check.addProbe(swIds.probe());
  // The first check ran without this probe: while the version is unknown, check again so the
  // register refuses (200) instead of issuing a document it could not send.
  if (!(await swIds.refresh())) await storage.check.run();
  currentCertificate = () => storage.index.currentMerchant()?.merchant.certificate;
  identityHistory = () => storage.index.merchantIdentities();
  // ADR 0805: everything writes through the publishing journal — the use cases and the background
  // sender alike — so each record's events follow (a resend's "registered" included).
  const events = composeEvents({
    status,
    capacity: () => storage.info(),
    index: storage.index,
    clock,
    lock,
    ...overrides.events,
  });
  const journal = events.journal(storage.journal);
  let merchant: Awaited<ReturnType<typeof composeMerchant>>;
  try {
    merchant = await composeMerchant({
      dataDir: config.dataDir,
      journal,
      index: storage.index,
      clock,
      lock,
      readiness,
      status,
      check: storage.check,
      // Only with the embedded SFS simulator (ADR 0006): stored settings may name another SFS.
      demo: demo && initial.sfsUrl === null,
      logger,
    });
  } catch (e) {
    await closeAll();
    throw e;
  }
  status.addProbe(printerProbe(printer));
  status.addProbe(offlineBacklogProbe(storage.index, clock));
  status.addProbe(locationProbe(storage.index));
  status.addProbe(sfs.health.probe);
  status.addProbe(
    backupProbe(new FileBackupLog(config.dataDir), () => clock.now(), config.chdu.kind === 'image'),
  );
  const printing = await composePrinting({
    printer,
    paperWidthDots: () => printer.profile.paperWidthDots,
    logoEnabled: () => settings.current().logoEnabled,
    journal,
    index: storage.index,
    lock,
  });
  // Capability 10: the overall state is never READY while documents are refused, and names a backlog
  // past its deadline.
  status.addBlocker({ refusal: () => lastRequestRefusal(storage.index) });
  status.addBlocker({ refusal: () => unprintedStatusRefusal({ index: storage.index, lock }) });
  status.addBlocker(backlogBlocker(storage.index, clock));
  const background = composeBackground({
    journal,
    index: storage.index,
    lock,
    sfs,
    // Read on every attempt: the settings may change the online limit (capability 12).
    get sfsTimeoutMs() {
      return settings.current().sfsTimeoutMs;
    },
    swId: () => swIds.value,
    sfsHealth: sfs.health,
    clock,
    ids,
    session: merchant.session,
    keystore: merchant.keystore,
    readiness,
    logger,
    ...(overrides.scheduler ? { scheduler: overrides.scheduler } : {}),
  });
  let qrPayments: QrPaymentsPart;
  try {
    qrPayments = composeQrPayments({
      config,
      nop,
      index: storage.index,
      merchant: merchant.session,
      printer,
      clock,
      logger,
      ...(overrides.qrJobs ? { jobs: overrides.qrJobs } : {}),
    });
  } catch (e) {
    await closeAll();
    throw e;
  }
  const renderer = overrides.renderer ?? pngRenderer(() => printer.profile.paperWidthDots);
  const documentDeps = {
    journal,
    index: storage.index,
    lock,
    merchant: merchant.session,
    sfs,
    // Read on every attempt: the settings may change the online limit (capability 12).
    get sfsTimeoutMs() {
      return settings.current().sfsTimeoutMs;
    },
    swId: () => swIds.value,
    sfsHealth: sfs.health,
    printer,
    renderer,
    logo: printing.logo,
    clock,
    ids,
    claims: background.claims,
    qrTender: qrPayments.tender,
    receiptTexts: () => {
      const s = settings.current();
      return { header: s.receiptHeader, footer: s.receiptFooter };
    },
  };
  const documents = composeDocuments(documentDeps);
  const offline = composeOffline(
    {
      ...documentDeps,
      // A spread copies a getter's value: the online limit is read live here too (capability 12).
      get sfsTimeoutMs() {
        return settings.current().sfsTimeoutMs;
      },
      claims: background.claims,
      signers: background.signers,
      scheduler: background.scheduler,
    },
    background.sender,
  );
  const storeSettings = new StoreSettings({
    journal,
    lock,
    settings,
    appliers: [printerSettingsApplier(printer, printerDeps), sfsSettingsApplier(sfs, sfsDeps)],
  });

  const app = await buildHttpApp({
    logger,
    readiness,
    token: config.token,
    allowedHosts: allowedHostNames(config.host, logger),
    version,
    routes: [
      systemRoutes({ version: () => ({ ...versionInfo, ...swIds.report() }), status }),
      // chduinfo names the printer too, from the same call as GET /api/printer (they agree).
      chduRoutes({
        info: async () => ({ ...(await storage.info()), printer: await printerSummary(printer) }),
      }),
      events.routes,
      merchant.routes,
      documents,
      ...offline,
      ...printing.routes,
      ...qrPayments.routes,
      settingsRoutes({ get: () => settingsView(settings), store: storeSettings }),
      ...composeAdmin({
        journal,
        index: storage.index,
        lock,
        printer,
        renderer,
        logo: printing.logo,
        clock,
        settings,
        qrPayments: qrPayments.deps,
      }),
    ],
  });

  warmReceiptImageOnListen(app, renderer, () => printer.charsPerLine, logger);
  await events.start();
  background.start();
  // ADR 0908: the QR payment jobs (MQTT session, catch-up, expiry) start and stop with the rest.
  qrPayments.jobs.start();
  return {
    app,
    logger,
    targets: {
      chdu: describeChduTarget(config.chdu),
      sfs: sfs.target,
      printer: printer.target,
      nop: qrPayments.jobs.status().target,
    },
    parts: {
      get printer() {
        return printer.current;
      },
      get sfsSimulator() {
        return sfs.simulator;
      },
      journal: storage.journal,
      index: storage.index,
      sender: background.sender,
      settings,
      events: events.events,
      ...(nop.simulator ? { nopSimulator: nop.simulator } : {}),
      qrPayments,
    },
    async close() {
      const writerDeadline = Date.now() + (overrides.stopWriterWaitMs ?? STOP_WRITER_WAIT_MS);
      pacing.stop();
      await events.stop();
      // A connection that never sends a request (a client's spare pooled socket) would hold
      // server.close() for ever once Node stops checking header timeouts at close; requests in
      // flight get CLOSE_GRACE_MS to finish, then every connection is cut.
      const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      await app.close();
      clearTimeout(force);
      await background.stop();
      await qrPayments.close();
      // ADR 0808: a request cut off above may still be writing its outcome or print record; the
      // CHDÚ, printer and SFS close under it only once it is done, or when the stop's time is up.
      if (await settlesBy(lock.idle(), writerDeadline)) {
        await closeAll();
        return;
      }
      logger.warn(`stopping while ${lock.holder ?? 'a writer'} is still at work past the stop's wait`);
      // Closing the SFS connection lets a send under way end (its answer or its limit); the request
      // then writes its outcome and prints: a few seconds more before the printer and the CHDÚ close.
      await closeAll(async () => {
        if (!(await settlesBy(lock.idle(), Date.now() + AFTER_SFS_WRITER_WAIT_MS))) {
          logger.warn(`the printer and the CHDÚ close under ${lock.holder ?? 'a writer'} still at work`);
        }
      });
    },
  };
}

/**
 * The printers' pacing pauses (ADR 0516), cut short by `stop()`: a pause under way ends at once and
 * later ones are skipped, so a paced print still in flight when the register stops ends in seconds
 * instead of outlasting the stop (ADR 0808).
 */
export function stoppablePauses(inner: Sleep): { sleep: Sleep; stop(): void } {
  let stopped = false;
  const waking = new Set<() => void>();
  return {
    sleep: (ms) => {
      if (stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          waking.delete(wake);
          resolve();
        };
        waking.add(wake);
        inner(ms).then(wake, wake);
      });
    },
    stop() {
      stopped = true;
      for (const wake of [...waking]) wake();
    },
  };
}

/** Whether `promise` settles before the `deadline` (epoch ms). */
async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The printer as `GET /api/chduinfo` names it. */
async function printerSummary(printer: ReceiptPrinter) {
  const info = await printerInfo(printer);
  return {
    adapter: info.adapter,
    target: info.target,
    ready: info.status.ready,
    ...(info.status.faultCode === undefined ? {} : { faultCode: info.status.faultCode }),
  };
}
