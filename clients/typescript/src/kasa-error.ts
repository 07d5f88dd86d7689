import { RESULT_CODES, type ResultCode, type ResultName } from './generated/api.js';

const NAMES = new Map<number, ResultName>(
  Object.entries(RESULT_CODES).map(([name, { code }]) => [code, name as ResultName]),
);

/**
 * Every answer that is not `resultCode: 0` — also the ones kasa sends with HTTP 200 (507 on
 * store: stored and registered but not printed; 506 on document/get: not found) — and every
 * transport failure (`resultCode` undefined: no answer arrived).
 */
export class KasaError extends Error {
  /** The result code kasa answered with; undefined when no answer arrived (network, timeout). */
  readonly resultCode: ResultCode | undefined;
  readonly resultName: ResultName | undefined;
  /** HTTP status of the answer; undefined without one. */
  readonly httpStatus: number | undefined;
  /** The whole ErrorResponse (e.g. `document` and `printResultCode` with 507). */
  readonly body: Record<string, unknown> | undefined;

  constructor(
    message: string,
    answer?: { resultCode: number; httpStatus: number; body: Record<string, unknown> },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'KasaError';
    this.resultCode = answer?.resultCode as ResultCode | undefined;
    this.resultName = answer === undefined ? undefined : NAMES.get(answer.resultCode);
    this.httpStatus = answer?.httpStatus;
    this.body = answer?.body;
  }

  /** True when kasa answered with this result code. */
  is(name: ResultName): boolean {
    return this.resultName === name;
  }

  /** No answer arrived: whether the request was carried out is unknown (retry with the same key). */
  get noAnswer(): boolean {
    return this.resultCode === undefined;
  }
}
