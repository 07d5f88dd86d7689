// Entry of the keystore worker thread (pkcs12-worker-reader.ts) when kasa runs its TypeScript
// through tsx (tests, `npm run kasa`): a worker thread starts without the loader of the thread that
// created it, so it registers tsx before it loads the TypeScript worker module. Compiled code
// (dist/, ADR 0800) starts pkcs12-worker.js directly; the build leaves this file out.
import { register } from 'tsx/esm/api';

register();
await import('./pkcs12-worker.ts');
