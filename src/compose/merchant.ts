import { join } from 'node:path';
import type { Logger } from 'pino';
import { Pkcs12MerchantKeystore } from '../adapters/merchant/pkcs12-merchant-keystore.js';
import {
  machineSecret,
  machineSecretIsWeak,
  SealedSecretStore,
} from '../adapters/merchant/sealed-secret-store.js';
import { demoMerchantFiles } from '../adapters/merchant/test-merchant.js';
import type { Clock } from '../core/ports/clock.js';
import type { Journal } from '../core/ports/journal.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import type { ConsistencyProbe } from '../core/services/consistency-check.js';
import { ensureDemoMerchant } from '../core/services/ensure-demo-merchant.js';
import { MerchantSession } from '../core/services/merchant-session.js';
import type { Readiness, RegisterStatus } from '../core/services/register-status.js';
import { StoreMerchant } from '../core/services/store-merchant.js';
import type { WriteLock } from '../core/services/write-lock.js';
import type { RoutePlugin } from '../http/app.js';
import { merchantRoutes } from '../http/routes/merchant.js';

/** The merchant capability, wired: what composeKasa hands to the HTTP app and the document work. */
export interface MerchantPart {
  /** Current signer (`session.currentSigner()`), readiness refusal, status probe. */
  session: MerchantSession;
  store: StoreMerchant;
  routes: RoutePlugin;
  /** The sealed keystores per certificate (a resend after a renewal signs with the older one, ADR 0703). */
  keystore: Pkcs12MerchantKeystore;
}

export interface MerchantWiring {
  dataDir: string;
  /** The CHDÚ journal and its index, already synchronised (the index is read at once). */
  journal: Journal;
  index: JournalIndex;
  clock: Clock;
  lock: WriteLock;
  readiness: Readiness;
  status: RegisterStatus;
  /** The CHDÚ consistency check: gets the "merchant certificate readable" probe. */
  check?: { addProbe(probe: ConsistencyProbe): void };
  /** Create a demo merchant when none is stored (`kasa serve` without `--no-demo`). */
  demo: boolean;
  logger: Logger;
  /** Key material that does not live in the data dir (ADR 0200); default the machine id. */
  hostSecret?: () => Uint8Array;
}

/**
 * Called by composeKasa (the one composition root): the keystore adapter over
 * `<data-dir>/secrets/`, the merchant loaded again from the CHDÚ with no password, the demo
 * merchant on an empty register, the readiness refusal and the status probe registered.
 */
export async function composeMerchant(w: MerchantWiring): Promise<MerchantPart> {
  if (w.hostSecret === undefined && machineSecretIsWeak()) {
    w.logger.warn(
      'no machine id (/etc/machine-id) on this host: merchant secrets are sealed with the host name, which is guessable (ADR 0200)',
    );
  }
  const keystore = new Pkcs12MerchantKeystore(
    new SealedSecretStore(join(w.dataDir, 'secrets'), w.hostSecret ?? machineSecret),
  );
  const session = new MerchantSession({ index: w.index, keystore, clock: w.clock });
  const store = new StoreMerchant({
    journal: w.journal,
    index: w.index,
    keystore,
    session,
    clock: w.clock,
    lock: w.lock,
  });
  await session.load();
  if (w.demo) {
    const demo = await ensureDemoMerchant({
      index: w.index,
      store,
      createFiles: () => demoMerchantFiles(w.dataDir, w.clock.now()),
    });
    if (demo) {
      w.logger.warn(
        { dic: demo.dic, cashRegisterCode: demo.organizationUnit.cashRegisterCode },
        'demo merchant created: receipts are demos, not fiscal documents (start with --no-demo on a fresh data dir for real work)',
      );
    }
  }
  const refusal = session.refusal();
  if (refusal) w.logger.warn({ resultCode: refusal.resultCode }, refusal.message);
  w.readiness.add(session);
  w.status.addProbe(session.probe);
  w.check?.addProbe(session.consistencyProbe);
  return {
    session,
    store,
    routes: merchantRoutes({ store, index: w.index, session, clock: w.clock }),
    keystore,
  };
}
