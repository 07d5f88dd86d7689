// Entry of the keystore worker thread (pkcs12-worker-reader.ts). kasa runs its TypeScript through
// tsx (bin/kasa.js, npm start); a worker thread starts without the loader of the thread that
// created it, so it registers tsx before it loads the TypeScript worker module.
import { register } from 'tsx/esm/api';

register();
await import('./pkcs12-worker.ts');
