import type { MerchantView } from '../merchant/merchant-record.js';
import type { JournalIndex } from '../ports/journal-index.js';
import type { StoreMerchant } from './store-merchant.js';

/** Files of a freshly made test merchant and the password of its keystore. */
export interface DemoMerchantFiles {
  identityXml: string;
  authXml: string;
  password: string;
}

/**
 * Demo mode (`kasa serve` on an empty data dir without `--no-demo`): when no merchant is stored,
 * makes a test merchant with `createFiles` and stores it marked `demo: true`, so the service is
 * usable at once and every receipt of it is marked as a demo. Returns the stored merchant, or
 * undefined when a merchant already exists.
 */
export async function ensureDemoMerchant(deps: {
  index: JournalIndex;
  store: StoreMerchant;
  createFiles: () => DemoMerchantFiles;
}): Promise<MerchantView | undefined> {
  if (deps.index.currentMerchant()) return undefined;
  const files = deps.createFiles();
  return deps.store.execute(
    {
      identificationData: files.identityXml,
      authenticationData: files.authXml,
      keyStorePassword: files.password,
    },
    { demo: true },
  );
}
