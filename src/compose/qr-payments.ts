import { join } from 'node:path';
import type { Logger } from 'pino';
import { SqlitePaymentIntentStore } from '../adapters/qr-payments/sqlite-payment-intent-store.js';
import { qrPng } from '../adapters/receipt-image/qr-png.js';
import type { ServeConfig } from '../config/serve-config.js';
import type { StoreDocumentInput, ValidatedStoreRequest } from '../core/documents/store-request.js';
import type { Clock } from '../core/ports/clock.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';
import { readQrPaymentSettings } from '../core/qr-payments/qr-payment-settings.js';
import type { MerchantSession } from '../core/services/merchant-session.js';
import { CancelQrPayment } from '../core/services/qr-payments/cancel-qr-payment.js';
import { CreateQrPayment } from '../core/services/qr-payments/create-qr-payment.js';
import { GetQrPayment } from '../core/services/qr-payments/get-qr-payment.js';
import { NotificationIntake } from '../core/services/qr-payments/notification-intake.js';
import { PrintQrSlip } from '../core/services/qr-payments/print-qr-slip.js';
import { QrPaymentDay } from '../core/services/qr-payments/qr-payment-day.js';
import type { QrPaymentDeps } from '../core/services/qr-payments/qr-payment-deps.js';
import { QrPaymentUpkeep } from '../core/services/qr-payments/qr-payment-upkeep.js';
import { QrPaymentWatch } from '../core/services/qr-payments/qr-payment-watch.js';
import { QrTenderCheck } from '../core/services/qr-payments/qr-tender-check.js';
import type { RoutePlugin } from '../http/app.js';
import { payPageRoutes } from '../http/routes/pay-page.js';
import { qrPaymentRoutes } from '../http/routes/qr-payments.js';
import type { NopConnection } from './open-payment-notifier.js';
import { QrPaymentJobs, type QrPaymentJobsOptions } from './qr-payment-jobs.js';

/** The QR payment capability, wired (ADR 0900). */
export interface QrPaymentsPart {
  routes: RoutePlugin[];
  /** The store path's hook (DocumentDeps.qrTender). */
  tender: (input: StoreDocumentInput, request: ValidatedStoreRequest) => ValidatedStoreRequest;
  jobs: QrPaymentJobs;
  deps: QrPaymentDeps;
  intake: NotificationIntake;
  upkeep: QrPaymentUpkeep;
  close(): Promise<void>;
}

export interface QrPaymentsWiring {
  config: ServeConfig;
  nop: NopConnection;
  index: JournalIndex;
  merchant: MerchantSession;
  printer: ReceiptPrinter;
  clock: Clock;
  logger: Logger;
  jobs?: Partial<Omit<QrPaymentJobsOptions, 'describe'>>;
}

/**
 * Called by composeKasa: the intent store in `<data-dir>/qr-payments.sqlite`, the settings in force
 * (stored settings, `--nop-env`, demo defaults with the embedded simulator), the use cases, the
 * routes and the background jobs (started by composeKasa after the HTTP app is built).
 */
export function composeQrPayments(w: QrPaymentsWiring): QrPaymentsPart {
  const store = new SqlitePaymentIntentStore(join(w.config.dataDir, 'qr-payments.sqlite'));
  const log = w.logger.child({ part: 'qr-payments' });
  // ADR 0008 §2: a value given by flag is fixed for the process and wins over the stored one.
  const fixed = {
    ...(w.config.nopEnv === undefined ? {} : { nopEnvironment: w.config.nopEnv }),
    ...(w.config.nopIban === undefined ? {} : { nopIban: w.config.nopIban }),
    ...(w.config.nopCreditorName === undefined ? {} : { nopCreditorName: w.config.nopCreditorName }),
  };
  const settings = () => readQrPaymentSettings(w.index.settings(), { demo: w.nop.demoDefaults, fixed });
  const deps: QrPaymentDeps = {
    store,
    nop: () => w.nop.forEnvironment(settings().nopEnvironment),
    index: w.index,
    merchant: w.merchant,
    settings,
    printer: w.printer,
    clock: w.clock,
    watch: new QrPaymentWatch(),
    log: (level, message, data) => log[level](data ?? {}, message),
  };
  const intake = new NotificationIntake(deps);
  const upkeep = new QrPaymentUpkeep(deps, intake);
  const jobs = new QrPaymentJobs(deps, intake, upkeep, {
    ...w.jobs,
    describe: (env) => w.nop.describe(env as 'off'),
  });
  const get = new GetQrPayment(deps);
  const tender = new QrTenderCheck(deps);
  return {
    routes: [
      qrPaymentRoutes({
        create: new CreateQrPayment(deps),
        get,
        cancel: new CancelQrPayment(deps, () => upkeep.lastLook()),
        print: new PrintQrSlip(deps),
        day: new QrPaymentDay(deps),
        watch: deps.watch,
        jobs,
        qrPng,
      }),
      payPageRoutes({ get, qrPng }),
    ],
    tender: (input, request) => tender.check(input, request),
    jobs,
    deps,
    intake,
    upkeep,
    async close() {
      await jobs.stop();
      store.close();
    },
  };
}
