import { RESULT_CODES, type ResultCode, type ResultName } from './result-codes.js';

/**
 * The one error type of kasa. Every failure a client can see is a FiscalError carrying a result
 * code from the table and a human sentence naming the field or the cause. Extra structured data
 * (e.g. the SFS error code, the printer code, the stored document) travel in `details` and are
 * merged into the ErrorResponse body by the HTTP layer.
 */
export class FiscalError extends Error {
  readonly resultCode: ResultCode;
  readonly resultName: ResultName;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(name: ResultName, message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FiscalError';
    this.resultName = name;
    this.resultCode = RESULT_CODES[name].code;
    this.details = details;
  }

  static is(e: unknown, name?: ResultName): e is FiscalError {
    return e instanceof FiscalError && (name === undefined || e.resultName === name);
  }
}

/** 701 helper: a rule broken by one field. */
export function invalidInput(field: string, rule: string, details?: Record<string, unknown>): FiscalError {
  return new FiscalError('INVALID_INPUT', `${field}: ${rule}`, { field, ...details });
}
