import { parentPort, workerData } from 'node:worker_threads';
import { FiscalError } from '../../core/fiscal-error.js';
import type { ResultName } from '../../core/result-codes.js';
import type { Pkcs12Limits } from './pkcs12-limits.js';
import { type Pkcs12Contents, readPkcs12 } from './pkcs12-reader.js';

/** What the main thread hands the worker (as `workerData`): one keystore to read. */
export interface Pkcs12Job {
  keyStore: Uint8Array;
  storePassword: string;
  keyPassword: string;
  limits: Pkcs12Limits;
}

/**
 * The worker's messages: `started` once its code is loaded and the read begins (the time limit
 * counts from then), then one answer: the contents, or the FiscalError to raise in the main thread.
 */
export type Pkcs12Answer =
  | { started: true }
  | { ok: true; contents: Pkcs12Contents }
  | { ok: false; name: ResultName; message: string; details?: Record<string, unknown> };

/**
 * The worker thread side of {@link WorkerPkcs12Reader}: reads the keystore it was started with,
 * posts one answer and ends. Loaded through pkcs12-worker-boot.mjs.
 */
export function answerJob(job: Pkcs12Job): Pkcs12Answer {
  try {
    return { ok: true, contents: readPkcs12(job.keyStore, job.storePassword, job.keyPassword, job.limits) };
  } catch (e) {
    if (e instanceof FiscalError) {
      return {
        ok: false,
        name: e.resultName,
        message: e.message,
        ...(e.details ? { details: { ...e.details } } : {}),
      };
    }
    return {
      ok: false,
      name: 'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
      message: 'authentication data keystore: the data are not a readable PKCS#12 keystore',
      details: { keystoreProblem: 'damaged' },
    };
  }
}

if (parentPort && workerData && (workerData as { kasaPkcs12Job?: unknown }).kasaPkcs12Job) {
  parentPort.postMessage({ started: true } satisfies Pkcs12Answer);
  parentPort.postMessage(answerJob((workerData as { kasaPkcs12Job: Pkcs12Job }).kasaPkcs12Job));
}
