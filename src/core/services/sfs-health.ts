import { registerRefusalKind } from '../offline/register-refusal.js';
import type { SfsOutcome } from '../ports/tax-authority.js';
import { RESULT_CODES } from '../result-codes.js';
import { sfsTextInSentence } from '../sfs/error-text.js';
import type { ComponentStatus, StatusProbe } from './register-status.js';

/**
 * What the last send attempts said about the SFS, for `GET /api/status/get`. In memory only: the
 * journal keeps every exchange; this is the register's current impression.
 */
/** Who made an attempt: a client request, or the background sender (capability 10). */
export type AttemptOrigin = 'request' | 'background';

/** What an attempt sent, so status can name it: `document 202611/5` or `location 3`. */
export interface AttemptSubject {
  name: string;
  /** SendingCount > 1: a resend (background, `send/offline`, a repair) of a stored item. */
  resend: boolean;
}

export class SfsHealth {
  #last:
    | {
        outcome: SfsOutcome['kind'];
        at: Date;
        detail: string;
        code?: number;
        text?: string;
        subject?: AttemptSubject;
      }
    | undefined;
  #lastAccepted: Date | undefined;
  readonly #listeners: Array<(outcome: SfsOutcome['kind'], origin: AttemptOrigin) => void> = [];

  /**
   * `merchantProblem`: why the SFS will refuse the merchant in force, when that can be known
   * beforehand (the embedded simulator trusts only the demo CA's certificates).
   */
  constructor(
    private target: string,
    private merchantProblem: () => string | undefined = () => undefined,
  ) {}

  /**
   * Takes over the target and merchant check of another connection's health: the settings
   * swapped the SFS connection (capability 12). What was seen of the old SFS is forgotten; listeners
   * stay.
   */
  adopt(other: SfsHealth): void {
    this.target = other.target;
    this.merchantProblem = other.merchantProblem;
    this.#last = undefined;
    this.#lastAccepted = undefined;
  }

  /** Called with every outcome recorded (the offline sender wakes up when the SFS answers again). */
  onOutcome(listener: (outcome: SfsOutcome['kind'], origin: AttemptOrigin) => void): void {
    this.#listeners.push(listener);
  }

  record(outcome: SfsOutcome, at: Date, origin: AttemptOrigin = 'request', subject?: AttemptSubject): void {
    let detail: string;
    switch (outcome.kind) {
      case 'accepted':
        detail = 'accepted';
        this.#lastAccepted = at;
        break;
      case 'rejected':
      case 'duplicate':
        detail = `answered ${outcome.code}: ${outcome.text}`;
        break;
      case 'unreachable':
        detail = outcome.timedOut ? `no answer within ${outcome.elapsedMs} ms` : outcome.reason;
        break;
      default:
        detail = outcome.reason;
    }
    this.#last = {
      outcome: outcome.kind,
      at,
      detail,
      ...(outcome.kind === 'rejected' || outcome.kind === 'duplicate'
        ? { code: outcome.code, text: outcome.text }
        : {}),
      ...(subject ? { subject } : {}),
    };
    for (const listener of this.#listeners) listener(outcome.kind, origin);
  }

  readonly probe: StatusProbe = {
    component: 'SFS',
    check: (): ComponentStatus => {
      const details: Record<string, unknown> = { target: this.target };
      if (this.#lastAccepted) details.lastAccepted = this.#lastAccepted.toISOString();
      const problem = this.merchantProblem();
      if (problem) {
        return { component: 'SFS', state: 'WARNING', reasonCode: 501, reason: problem, details };
      }
      const last = this.#last;
      if (!last) {
        return {
          component: 'SFS',
          state: 'OK',
          reasonCode: 0,
          reason: `SFS at ${this.target}; nothing sent since start.`,
          details,
        };
      }
      details.lastAttempt = last.at.toISOString();
      details.lastOutcome = last.outcome;
      if (last.outcome === 'accepted') {
        return {
          component: 'SFS',
          state: 'OK',
          reasonCode: 0,
          reason: `SFS at ${this.target} answers.`,
          details,
        };
      }
      if (last.outcome === 'rejected' && last.subject !== undefined) return refusedStatus(last, details);
      const code =
        last.outcome === 'unreachable'
          ? 600
          : last.outcome === 'invalid-response'
            ? 504
            : last.outcome === 'unverified'
              ? 602
              : last.outcome === 'duplicate'
                ? 601
                : 501;
      return {
        component: 'SFS',
        state: 'WARNING',
        reasonCode: code,
        reason:
          last.outcome === 'unreachable' || last.outcome === 'invalid-response'
            ? `The last attempt got no usable answer (${last.detail}): documents are issued offline and sent later.`
            : `The last document was not accepted (${last.detail}).`,
        details,
      };
    },
  };
}

/**
 * The SFS refused the last attempt: which one (the first sending of a document, or the resend of
 * a stored item) and why. A refusal of the whole register (-8, -10, -12, -13, -101, -102, ADR
 * 0711) says the item itself is fine and what clears it, with the code the cause maps to — the
 * last stored document may be perfectly valid and merely waiting (review of capability 10).
 */
function refusedStatus(
  last: { detail: string; code?: number; text?: string; subject?: AttemptSubject },
  details: Record<string, unknown>,
): ComponentStatus {
  const subject = last.subject!;
  const attempt = subject.resend
    ? `the last attempt, the resend of ${subject.name},`
    : `the last attempt, the first sending of ${subject.name},`;
  const why = `${last.code}: ${sfsTextInSentence(last.text ?? '')}`;
  const kind = registerRefusalKind(last.code);
  if (kind) {
    return {
      component: 'SFS',
      state: 'WARNING',
      reasonCode: RESULT_CODES[kind.resultName].code,
      reason: `The SFS refused ${attempt} with ${why}: ${kind.cause} — a problem of the register, not of ${subject.name}. ${kind.todo.charAt(0).toUpperCase()}${kind.todo.slice(1)}.`,
      details,
    };
  }
  return {
    component: 'SFS',
    state: 'WARNING',
    reasonCode: RESULT_CODES.LAST_REQUEST_INVALID.code,
    reason: `The SFS refused ${attempt} with ${why}.`,
    details,
  };
}
