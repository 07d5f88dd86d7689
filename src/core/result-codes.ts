/**
 * The result codes of the kasa API v1.7, as one typed table.
 *
 * Every response body carries one of these as `resultCode`; every failure is a {@link FiscalError}
 * carrying one. The HTTP status for each code is decided in exactly one place
 * (`src/http/error-mapping.ts`); `docs/errors.md` documents the table for users.
 *
 * Names follow the API text where it names a code; where it only gives the number, the name is
 * ours (marked "kasa name" in docs/errors.md).
 */
export const RESULT_CODES = {
  OK: { code: 0, meaning: 'Success.' },

  PRINTER_NOT_READY: {
    code: 100,
    meaning: 'The printer is not ready (cover open, overheated, or another state that stops printing).',
  },
  PRINTER_DATA_REFUSED: { code: 101, meaning: 'The printer refused the data sent to it.' },
  PRINTER_NOT_CONNECTED: {
    code: 102,
    meaning: 'The printer cannot be reached (not connected or switched off).',
  },
  PRINTER_COMMUNICATION_ERROR: {
    code: 103,
    meaning: 'Communication with the printer failed (no or garbled answer, timeout).',
  },
  PRINTER_NOT_CONFIGURED: { code: 104, meaning: 'No printer is configured (`--printer none`).' },
  PRINTER_NO_PAPER: { code: 105, meaning: 'The printer is out of paper.' },
  PARTIAL_PRINT: {
    code: 106,
    meaning: 'The job was cut short: part of it is on paper; the answer says where to resume.',
  },

  CHDU_NOT_CONNECTED: { code: 200, meaning: 'The protected data storage (CHDÚ) is not connected.' },
  CHDU_WRITE_ERROR: { code: 201, meaning: 'The CHDÚ failed to read or write (hardware or data error).' },
  CHDU_WRITE_LIMIT: { code: 202, meaning: 'The CHDÚ is full or locked: no record can be written.' },
  CHDU_RECORD_SIZE_LIMIT: { code: 203, meaning: 'The record is larger than the maximum record size.' },

  BUSY: { code: 300, meaning: 'Another request is writing to the CHDÚ; try again shortly.' },

  MERCHANT_WRONG_FORMAT: { code: 400, meaning: 'The identification data are wrong (a field is named).' },
  MERCHANT_DIFFERENT_DIC: { code: 401, meaning: 'The CHDÚ already belongs to a merchant with another DIČ.' },
  MERCHANT_CERTIFICATE_ERROR: {
    code: 402,
    meaning: 'No usable merchant certificate (none stored, unreadable, or not matching).',
  },
  MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE: {
    code: 403,
    meaning: 'The keystore password is wrong or the keystore is corrupted.',
  },
  MERCHANT_PARSE_ERROR: { code: 404, meaning: 'The identification or authentication XML cannot be parsed.' },
  MERCHANT_CERTIFICATE_EXPIRED: {
    code: 405,
    meaning: 'The merchant certificate has expired (or is not yet valid).',
  },

  NO_FIX_NEEDED: { code: 500, meaning: 'Nothing waits for repair: no document or location is stuck.' },
  LAST_REQUEST_INVALID: {
    code: 501,
    meaning:
      'The SFS rejected the last stored request; it is stored but not valid and must be repaired before the next fiscal write.',
  },
  INCORRECT_TIME: {
    code: 502,
    meaning: "The register's time is wrong, or the SFS refused a date of the request for time reasons.",
  },
  LOCATION_NEEDS_REPAIR: { code: 503, meaning: 'A location rejected by the SFS waits for repair.' },
  SFS_INVALID_RESPONSE: { code: 504, meaning: 'The SFS answered with a response kasa cannot read.' },
  NOTHING_TO_PRINT: {
    code: 505,
    meaning: 'No unprinted document found, or the last document was electronic.',
  },
  NOT_FOUND: { code: 506, meaning: 'The requested document or location was not found.' },
  DOCUMENT_NOT_PRINTED: { code: 507, meaning: 'The document was stored and registered but printing failed.' },
  LAST_DOCUMENT_NOT_PRINTED: {
    code: 508,
    meaning: 'The last document is not printed yet; print it with POST /api/document/print first.',
  },

  SFS_COMMUNICATION_ERROR: { code: 600, meaning: 'The SFS could not be reached.' },
  SFS_DUPLICATE: { code: 601, meaning: 'The SFS reports the document as a duplicate.' },
  SFS_RESPONSE_NOT_VERIFIED: { code: 602, meaning: 'The SFS response signature could not be verified.' },

  QR_PAYMENTS_OFF: {
    code: 800,
    meaning:
      'QR payments are off or not set up: the NOP environment is off, or the IBAN or the creditor name is missing (kasa extension, ADR 0900).',
  },
  NOP_UNREACHABLE: {
    code: 801,
    meaning:
      'The payment notifier (NOP) could not be reached, timed out, failed or asked to slow down; no payment id was issued.',
  },
  NOP_REFUSED: {
    code: 802,
    meaning:
      "NOP refused the register's certificate, or the certificate does not name the stored merchant and register.",
  },
  QR_PAYMENT_NOT_FOUND: { code: 803, meaning: 'No QR payment with this id is known to this register.' },
  QR_PAYMENT_NOT_PAID: {
    code: 804,
    meaning: 'The QR payment is not PAID (still pending, mismatched, cancelled, expired or paid late).',
  },
  QR_PAYMENT_USED: { code: 805, meaning: 'The QR payment id is already used by another document.' },
  QR_PAYMENT_ALREADY_PAID: {
    code: 806,
    meaning: 'The QR payment is already paid: it cannot be cancelled; issue the receipt with it.',
  },

  MALFORMED_INPUT: { code: 700, meaning: 'The request body is not valid JSON.' },
  INVALID_INPUT: {
    code: 701,
    meaning: 'The request breaks a rule; the message names the field and the rule.',
  },

  UNKNOWN: {
    code: -1,
    meaning:
      'An error outside the fiscal rules: unknown path, wrong method, or an unexpected internal error (see the service log).',
  },
} as const satisfies Record<string, { code: number; meaning: string }>;

export type ResultName = keyof typeof RESULT_CODES;
export type ResultCode = (typeof RESULT_CODES)[ResultName]['code'];

const byCode = new Map<number, ResultName>(
  (Object.keys(RESULT_CODES) as ResultName[]).map((name) => [RESULT_CODES[name].code, name]),
);

/** The name of a result code, or undefined when the number is not in the table. */
export function resultName(code: number): ResultName | undefined {
  return byCode.get(code);
}

/** Every result code in ascending order (for docs and tests). */
export function allResultCodes(): ReadonlyArray<{ name: ResultName; code: ResultCode; meaning: string }> {
  return (Object.keys(RESULT_CODES) as ResultName[])
    .map((name) => ({
      name,
      code: RESULT_CODES[name].code as ResultCode,
      meaning: RESULT_CODES[name].meaning,
    }))
    .sort((a, b) => a.code - b.code);
}
