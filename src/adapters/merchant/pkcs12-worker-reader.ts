import { Worker } from 'node:worker_threads';
import { FiscalError } from '../../core/fiscal-error.js';
import { DEFAULT_PKCS12_LIMITS, type Pkcs12Limits } from './pkcs12-limits.js';
import { keystoreError, type Pkcs12Contents, readPkcs12 } from './pkcs12-reader.js';
import type { Pkcs12Answer, Pkcs12Job } from './pkcs12-worker.js';

/** Reads a PKCS#12 keystore (see {@link readPkcs12} for the errors). */
export type Pkcs12Read = (
  keyStore: Uint8Array,
  storePassword: string,
  keyPassword: string,
) => Promise<Pkcs12Contents>;

export interface WorkerReaderOptions {
  /** Wall time one keystore may take in its worker once the worker runs (default 10 s). */
  timeLimitMs?: number;
  limits?: Pkcs12Limits;
  /** Heap limit of the worker (default 128 MiB). */
  maxHeapMb?: number;
}

export const DEFAULT_KEYSTORE_TIME_LIMIT_MS = 10_000;

// Compiled (dist/, ADR 0800) the worker is plain JavaScript beside this module; run as TypeScript
// (tsx: tests, `npm run kasa`) the boot file registers tsx in the worker thread first.
const BOOT = import.meta.url.endsWith('.js')
  ? new URL('./pkcs12-worker.js', import.meta.url)
  : new URL('./pkcs12-worker-boot.mjs', import.meta.url);

/**
 * Reads keystores off the event loop (ADR 0602): each read runs {@link readPkcs12}, with its
 * {@link Pkcs12Limits}, in a worker thread of its own that is stopped after a time limit and has a
 * bounded heap, so no keystore — however crafted — delays the answers to other requests. One read
 * at a time: a second one while a read runs is refused with 300 BUSY (never queued), so keystores
 * cannot pile up work either.
 *
 * @throws FiscalError 403 as {@link readPkcs12}, also when the time limit is reached
 *   (`keystoreProblem: 'over-limits'`) or the worker fails; 300 BUSY as above.
 */
export class WorkerPkcs12Reader {
  readonly #timeLimitMs: number;
  readonly #limits: Pkcs12Limits;
  readonly #maxHeapMb: number;
  #running = false;

  constructor(options: WorkerReaderOptions = {}) {
    this.#timeLimitMs = options.timeLimitMs ?? DEFAULT_KEYSTORE_TIME_LIMIT_MS;
    this.#limits = options.limits ?? DEFAULT_PKCS12_LIMITS;
    this.#maxHeapMb = options.maxHeapMb ?? 128;
  }

  /** The reader as a function, for {@link Pkcs12MerchantKeystore}. */
  get read(): Pkcs12Read {
    return (keyStore, storePassword, keyPassword) => this.#read({ keyStore, storePassword, keyPassword });
  }

  async #read(job: Omit<Pkcs12Job, 'limits'>): Promise<Pkcs12Contents> {
    if (this.#running) {
      throw new FiscalError('BUSY', 'Another keystore is being opened; try again shortly.');
    }
    this.#running = true;
    try {
      return await this.#inWorker({ ...job, limits: this.#limits });
    } finally {
      this.#running = false;
    }
  }

  #inWorker(job: Pkcs12Job): Promise<Pkcs12Contents> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(BOOT, {
        workerData: { kasaPkcs12Job: job },
        resourceLimits: { maxOldGenerationSizeMb: this.#maxHeapMb, maxYoungGenerationSizeMb: 16 },
        stdout: true,
        stderr: true,
      });
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        void worker.terminate();
      };
      // The limit counts from when the read starts: starting a thread and loading its code on a
      // loaded machine is not the keystore's cost.
      const startClock = (): void => {
        timer = setTimeout(
          () =>
            settle(() =>
              reject(
                keystoreError(
                  `opening the keystore took longer than ${this.#timeLimitMs / 1000} s; it was stopped`,
                  'over-limits',
                ),
              ),
            ),
          this.#timeLimitMs,
        );
      };
      worker.on('message', (answer: Pkcs12Answer) => {
        if ('started' in answer) return startClock();
        settle(() =>
          answer.ok
            ? resolve(answer.contents)
            : reject(new FiscalError(answer.name, answer.message, answer.details)),
        );
      });
      worker.once('error', (e) =>
        settle(() =>
          reject(
            (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? keystoreError('opening the keystore needed more memory than allowed', 'over-limits')
              : new FiscalError('UNKNOWN', 'The keystore reader failed; see the service log.', undefined, {
                  cause: e,
                }),
          ),
        ),
      );
      worker.once('exit', () =>
        settle(() => reject(new FiscalError('UNKNOWN', 'The keystore reader ended without an answer.'))),
      );
    });
  }
}

/** {@link readPkcs12} on the calling thread, with the same limits (tests, tools). */
export const inlinePkcs12Read: Pkcs12Read = async (keyStore, storePassword, keyPassword) =>
  readPkcs12(keyStore, storePassword, keyPassword);
