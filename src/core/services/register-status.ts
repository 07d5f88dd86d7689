import type { FiscalError } from '../fiscal-error.js';
import { RESULT_CODES, type ResultName } from '../result-codes.js';

/** The parts of the register that status reports on, one entry each. */
export const COMPONENTS = [
  'CHDU',
  'PRINTER',
  'SFS',
  'MERCHANT',
  'OFFLINE_BACKLOG',
  'LOCATION',
  'BACKUP',
] as const;
export type ComponentName = (typeof COMPONENTS)[number];

/**
 * OK: working. WARNING: working, but someone should look (certificate expires soon, offline
 * backlog). ERROR: not working; `reasonCode` is the result code clients get because of it.
 * NOT_CONFIGURED: this component is not built or not set up in this process.
 */
export type ComponentState = 'OK' | 'WARNING' | 'ERROR' | 'NOT_CONFIGURED';

export interface ComponentStatus {
  component: ComponentName;
  state: ComponentState;
  /** Result code of the cause (0 when OK). */
  reasonCode: number;
  /** A sentence for the shop owner: what is wrong and what to do. */
  reason: string;
  /** Component facts (target, counts, dates). */
  details?: Record<string, unknown>;
}

/** Reports one component. Probes must be cheap: status is read-only and answered concurrently. */
export interface StatusProbe {
  readonly component: ComponentName;
  check(): Promise<ComponentStatus> | ComponentStatus;
}

/**
 * Something that can make the register refuse fiscal work (consistency check, merchant
 * certificate). `refusal()` is synchronous and cheap: it is asked on every request.
 */
export interface RefusalSource {
  refusal(): FiscalError | undefined;
}

export interface RegisterStatusReport {
  /** `READY`, or the name of the result code clients now get (e.g. `MERCHANT_CERTIFICATE_ERROR`). */
  state: 'READY' | ResultName;
  /** Result code of the cause (0 when READY). */
  reasonCode: number;
  reason: string;
  components: ComponentStatus[];
}

/**
 * ADR 0116: while the refusal is a storage fault (200–203: the CHDÚ or the index cannot be
 * written, or the chain does not verify), look-ups that only read keep being answered from the
 * index; every other refusal (no merchant, an expired certificate…) stops them as ADR 0008 §11 says.
 */
export function lookupsAnswered(refusal: FiscalError): boolean {
  return refusal.resultCode >= 200 && refusal.resultCode <= 203;
}

/** Aggregates refusal sources: the first one that refuses decides. */
export class Readiness implements RefusalSource {
  readonly #sources: RefusalSource[] = [];

  add(source: RefusalSource): void {
    this.#sources.push(source);
  }

  refusal(): FiscalError | undefined {
    for (const s of this.#sources) {
      const r = s.refusal();
      if (r) return r;
    }
    return undefined;
  }
}

function notConfigured(component: ComponentName): ComponentStatus {
  return {
    component,
    state: 'NOT_CONFIGURED',
    reasonCode: 0,
    reason: `${component} is not configured in this process.`,
  };
}

/** `GET /api/status/get`: one entry per component plus the overall state. */
export class RegisterStatus {
  readonly #probes = new Map<ComponentName, StatusProbe>();
  readonly #readiness: RefusalSource;
  readonly #blockers: RefusalSource[] = [];

  constructor(readiness: RefusalSource) {
    this.#readiness = readiness;
  }

  addProbe(probe: StatusProbe): void {
    this.#probes.set(probe.component, probe);
  }

  /**
   * A cause the overall state names after the readiness refusals (capability 10: never READY while
   * documents are refused): a stuck last request (501), an unprinted document (508), a backlog
   * past its deadline (600).
   */
  addBlocker(source: RefusalSource): void {
    this.#blockers.push(source);
  }

  /**
   * @param options.skip components not probed this time (left out of `components`): the event
   *   watcher's quick look after each append leaves the printer alone (ADR 0805).
   */
  async report(options: { skip?: readonly ComponentName[] } = {}): Promise<RegisterStatusReport> {
    const components = await Promise.all(
      COMPONENTS.filter((name) => !options.skip?.includes(name)).map(async (name) => {
        const probe = this.#probes.get(name);
        if (!probe) return notConfigured(name);
        try {
          return await probe.check();
        } catch (e) {
          const code = (e as Partial<FiscalError>).resultCode ?? RESULT_CODES.UNKNOWN.code;
          return {
            component: name,
            state: 'ERROR',
            reasonCode: code,
            reason: (e as Error).message,
          } as ComponentStatus;
        }
      }),
    );
    const refusal = this.#readiness.refusal() ?? this.#firstBlocker();
    if (refusal) {
      return {
        state: refusal.resultName,
        reasonCode: refusal.resultCode,
        reason: refusal.message,
        components,
      };
    }
    return { state: 'READY', reasonCode: 0, reason: 'The register is ready.', components };
  }

  #firstBlocker(): FiscalError | undefined {
    for (const b of this.#blockers) {
      try {
        const r = b.refusal();
        if (r) return r;
      } catch {
        // a blocker that cannot be read (index busy) does not hide the others
      }
    }
    return undefined;
  }
}
