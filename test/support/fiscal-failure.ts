import { FiscalError } from '../../src/core/fiscal-error.js';

/** The FiscalError a promise is rejected with; a resolved promise or another error fails the test. */
export async function fiscalFailure(p: Promise<unknown>): Promise<FiscalError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!FiscalError.is(e)) throw new Error(`expected a FiscalError, got ${String(e)}`);
  return e;
}
