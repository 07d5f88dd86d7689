import { allResultCodes } from '../core/result-codes.js';
import { httpStatusFor, routeExceptions } from './error-mapping.js';
import { MAX_UNANSWERED_PER_CONNECTION } from './pipelining.js';

/** When each code arises, for docs/errors.md (the table's `meaning` says what it is). */
const WHEN: Readonly<Record<number, string>> = {
  0: 'Every successful request.',
  100: 'The printer reports its cover open, an overheated head or another not-ready state; also EC_PRINTER from a CHDÚ with a printer behind it.',
  101: 'The printer refused the job, e.g. a layout wider than its paper.',
  102: 'The printer cannot be reached (connection refused, device missing, switched off).',
  103: 'The printer gave no, a late or a garbled answer; the virtual printer cannot write its files.',
  104: 'A print or drawer kick with `--printer none`.',
  105: 'The printer reports no paper.',
  106: 'The connection broke in the middle of a job; the answer says what was printed and where to resume.',
  200: 'The CHDÚ device or its port is missing or closed.',
  201: 'A CHDÚ read or write failed (EC_HW, CRC error, torn data); the journal chain does not verify (also an old block); the CHDÚ is older than its high-water mark (rolled back); the index cannot be written (I/O error). docs/faults.md.',
  202: 'The CHDÚ has no room for the whole record, or it is permanently locked; the disk holding the image or the index is full (the sentence names which). docs/faults.md.',
  203: 'A record would exceed the maximum record size; nothing is written.',
  300: 'Another request is writing to the CHDÚ; the request was not queued. Retry (with the same Idempotency-Key).',
  400: 'POST /api/merchant/store: identification data break a rule or do not match the certificate.',
  401: 'POST /api/merchant/store: the CHDÚ already holds a merchant with another DIČ.',
  402: 'No merchant stored, or the certificate cannot be read or used: every fiscal request is refused.',
  403: 'POST /api/merchant/store: wrong keystore/private-key password, or a corrupted keystore.',
  404: 'POST /api/merchant/store: the XML or its Base64 keystore cannot be parsed.',
  405: 'The certificate has expired or is not yet valid: every fiscal request is refused.',
  500: 'A repair (`POST /api/document/update` without `internalDocumentId`, `POST /api/location/update` with a fix and without `locationInternalId`) while nothing is stuck.',
  501: 'The SFS rejected the document or location being stored, or a repair of it (SOAP Fault; the response carries the SFS code and text), for a reason other than time; and, while that last request waits for repair, every request that adds to the CHDÚ: store, cash, a new location, free-text print, logo. The ways out are never refused with it: merchant/store (a renewed certificate clears -12/-13), document/update, fixLocation, offline/set-aside; nor are send/offline, document/print and copies. A look-up (`document/get`) or a same-key retry of a document the SFS did not accept, or that was set aside, answers its SFS error too (501, 502, 601 or 602 by cause); so does `document/update` naming a set-aside document (ADR 0715), a `fixLocation` naming a set-aside location (ADR 0717), and `location/get` when the last location is stuck or set aside (ADR 0707).',
  502: "The register's clock is earlier than the last stored document not set aside (`clock`, `lastDocumentNumber`, `lastCreateDate`; nothing stored); or the SFS refused the document or location being stored, or a repair of it, with a time reason: −103 … −107, −132, a location −108 … −110 (`ekasaError` with the SFS code and text; stored and stuck, the requests after it answer 501). docs/offline.md.",
  503: 'A location write while a rejected location waits for repair.',
  504: 'The SFS answer was not a readable RegisterReceiptResponse.',
  505: 'POST /api/document/print with nothing to print, or when the last document was electronic.',
  506: 'A lookup found nothing (HTTP 200 on POST /api/document/get, 404 elsewhere); `POST /api/document/update` or `POST /api/offline/set-aside` naming an `internalDocumentId`, or `POST /api/location/update` (ADR 0717) or `offline/set-aside` naming a `locationInternalId`, that does not exist.',
  507: 'POST /api/document/store: stored and registered, but printing failed (HTTP 200, with `document` and `printResultCode`). A retry with the same Idempotency-Key of an unprinted store or cash document (HTTP 200, with `document` or `cash`). A repeated `POST /api/document/update` naming a document it repaired whose original is not printed (HTTP 500, with `document`; ADR 0715).',
  508: 'A CHDÚ-writing request while the last non-electronic document is unprinted.',
  600: 'The SFS could not be reached (used where going offline is not possible).',
  601: 'The SFS reports the document as already registered.',
  602: 'The SFS response signature is missing, wrong, or by an untrusted certificate.',
  700: 'The body is not UTF-8 or not JSON.',
  701: 'The body is JSON but breaks a rule; `field` names it. Also: JSON nested deeper than 32 levels; a member named twice in one object (`field` names it); HTTP 400 for a percent-encoded or otherwise non-plain path; HTTP 413 for a body over the size limit of the endpoint (`error` says the limit in bytes); HTTP 415 for a body without `Content-Type: application/json`; HTTP 431 for headers over 16 KiB.',
  [-1]: `Unknown /api/ path (HTTP 404), wrong method (HTTP 405), missing/wrong token (HTTP 401), a request from another site's page (HTTP 403), foreign Host header (HTTP 421), a request not received in time (HTTP 408), a request Node cannot parse, without Host or with Host twice (HTTP 400), a request sent while ${MAX_UNANSWERED_PER_CONNECTION} others of its connection wait for their answers (HTTP 429; the connection is then closed).`,
};

/** "a, b and c" */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The status rule in one sentence, derived from the mapping (L3 of the s12 review: a hand-written
 * rule had left out 803 and the cash exception): `200 for success; 404 for 505, 506 and 803; …`.
 */
export function statusRule(): string {
  const notFound = allResultCodes()
    .filter(({ code }) => httpStatusFor(code) === 404)
    .map(({ code }) => String(code));
  const byCode = new Map<string, string[]>();
  for (const { route, resultCode, status } of routeExceptions()) {
    const key = `${status} for ${resultCode}`;
    byCode.set(key, [...(byCode.get(key) ?? []), route]);
  }
  const exceptions = [...byCode].map(([key, routes]) => `${key} on ${listed(routes)}`);
  return `200 for success; 404 for ${listed(notFound)}; ${exceptions.join('; ')}; 500 for every other failure`;
}

export function renderErrorsDoc(): string {
  const rows = allResultCodes().map(({ name, code, meaning }) => {
    const status = httpStatusFor(code);
    const exceptions = routeExceptions()
      .filter((e) => e.resultCode === code && e.status !== status)
      .map((e) => `${e.status} on ${e.route}`);
    const http = exceptions.length ? `${status} (${exceptions.join(', ')})` : String(status);
    return `| ${code} | \`${name}\` | ${http} | ${meaning} ${WHEN[code] ?? ''} |`;
  });
  return `# Result codes

Every response body is a JSON object with an integer \`resultCode\`; 0 means success. Every failure
is an ErrorResponse:

\`\`\`json
{ "resultCode": 701, "field": "documentEntries[0].vatRate", "error": "documentEntries[0].vatRate: unknown value "VAT_7"; one of VAT_23, 23%, VAT_20, 20%, VAT_19, 19%, VAT_10, 10%, VAT_5, 5%, VAT_0, 0%", "errorMessage": "(the same text)" }
\`\`\`

\`errorMessage\` repeats \`error\` for clients written against other vendors' documentation. Some
codes add fields (named per endpoint in the OpenAPI document at \`/api/openapi.json\`).

The HTTP status is decided in one place (\`src/http/error-mapping.ts\`), and the table gives each
code's:

${statusRule()}.

Besides the table,
the HTTP rules (docs/http-api.md, docs/security.md) answer with their own statuses: 400 (path not
spelled plainly: 701; a request Node cannot parse: -1), 401 (token), 403 (another site's page),
404 (unknown path), 405 (wrong method), 408 (request not received in time), 413 (body too large:
1 MiB, 10 MiB on image endpoints; \`error\` names the endpoint's limit in bytes), 415 (body
without \`Content-Type: application/json\`), 421 (foreign \`Host\` header), 429 (${MAX_UNANSWERED_PER_CONNECTION} requests of
the connection still wait for their answers) and 431 (headers over 16 KiB): \`resultCode\` -1, or
701 for 400 (path), 413, 415 and 431.

Names follow the API v1.7 text where it gives one; the others are kasa's names.
This file is generated from the code by \`npx tsx scripts/gen-errors-doc.ts\`; a test keeps it current.

| code | name | HTTP | meaning and when |
|---|---|---|---|
${rows.join('\n')}
`;
}
