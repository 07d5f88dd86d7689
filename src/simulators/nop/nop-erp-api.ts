import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { NopLedger, SimNotificationBody, SimRegister } from './nop-ledger.js';
import { ISO_UTC, readSmallBody, sendError, sendJson } from './nop-sim-http.js';
import { type SimClient, simClientOf } from './nop-sim-pki.js';

/** Switches of the HTTPS face (research §8.3), changed through the control API or by tests. */
export interface ErpSwitches {
  /** The id member of `generateNewTransactionId`: `transaction_id` (FS client) or `id` (Services API). */
  idField: 'transaction_id' | 'id';
  /** The next N requests get 429 with `Retry-After`. */
  rateLimited: number;
  retryAfterSeconds: number;
  /** The next N requests get 503 (NOP up but failing). */
  unavailable: number;
  /** Page size cap of `getAllTransactions` (truncation shows in `x-result-truncated`). */
  pageLimit: number;
}

export interface ErpRequestEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  client: string;
}

export interface ErpApiDeps {
  ledger: NopLedger;
  switches: ErpSwitches;
  now: () => Date;
  history: ErpRequestEntry[];
  /** Called for a valid bank notification: publish it to the register. */
  deliver(owner: SimRegister, body: SimNotificationBody): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The HTTPS face of the NOP simulator: the ERP API registers call (`status`,
 * `generateNewTransactionId`, `getAllTransactions`) and the bank API (`payments`), both behind
 * mutual TLS, as strict as research §8.3: no or an untrusted client certificate → 401, another
 * register's path or the wrong role → 403, wrong method → 405, a body that is not JSON → 415/400,
 * a JSON body that breaks the rules → 422, a repeated `X-Request-ID` → 409.
 */
export async function handleErpRequest(
  deps: ErpApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://nop');
  const socket = req.socket as TLSSocket;
  const cn = socket.authorized ? String(socket.getPeerCertificate().subject?.CN ?? '') : '';
  const client: SimClient | undefined = socket.authorized ? simClientOf(cn) : undefined;
  const entry: ErpRequestEntry = {
    at: deps.now().toISOString(),
    method: req.method ?? '',
    path: url.pathname,
    status: 0,
    client:
      client === undefined ? 'none' : client.role === 'register' ? `POKLADNICA-${client.code}` : client.role,
  };
  deps.history.push(entry);
  if (deps.history.length > 1000) deps.history.splice(0, deps.history.length - 1000);
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    entry.status = status;
    sendJson(res, status, body, headers);
  };
  const fail = (status: number, detail: string, headers: Record<string, string> = {}) => {
    entry.status = status;
    sendError(res, status, detail, headers);
  };
  // STYLE: simulators never answer synchronously.
  await new Promise((resolve) => setImmediate(resolve));
  if (!client) return fail(401, 'a client certificate issued to a register or a bank is required');
  const s = deps.switches;
  if (s.rateLimited > 0) {
    s.rateLimited--;
    return fail(429, 'slow down', { 'retry-after': String(s.retryAfterSeconds) });
  }
  if (s.unavailable > 0) {
    s.unavailable--;
    return fail(503, 'temporarily unavailable');
  }
  const path = url.pathname;
  if (path === '/api/v1/status') {
    if (req.method !== 'GET') return fail(405, 'GET only');
    return answer(200, {
      timestamp: deps.now().toISOString(),
      instance: 'kasa-nop-sim',
      build: 'sim',
      version: '1',
    });
  }
  if (path === '/api/v1/generateNewTransactionId') {
    if (req.method !== 'POST') return fail(405, 'POST only');
    if (client.role !== 'register') return fail(403, 'only a register may ask for a payment id');
    const body = await readSmallBody(req);
    if (body === undefined) return fail(413, 'body too large');
    let comment: string | undefined;
    if (body.length > 0) {
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
        return fail(415, 'use application/json');
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        return fail(400, 'the body is not JSON');
      }
      const keys =
        json !== null && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json) : undefined;
      const c = (json as { comment?: unknown } | null)?.comment;
      if (
        keys === undefined ||
        keys.some((k) => k !== 'comment') ||
        (c !== undefined && (typeof c !== 'string' || c.length > 256))
      ) {
        return fail(422, 'the body may only be {"comment": "<at most 256 characters>"}');
      }
      comment = c as string | undefined;
    }
    const tx = deps.ledger.issue({ dic: client.dic, code: client.code }, deps.now(), comment);
    return answer(200, { [s.idField]: tx.id, created_at: tx.createdAt });
  }
  const listing = /^\/api\/v1\/getAllTransactions\/POKLADNICA-(\d{17})$/.exec(path);
  if (listing) {
    if (req.method !== 'GET') return fail(405, 'GET only');
    if (client.role !== 'register' || listing[1] !== client.code) return fail(403, 'not your register');
    const from = url.searchParams.get('date_from');
    if (from === null || !ISO_UTC.test(from)) return fail(400, 'date_from (ISO-8601 UTC) is required');
    const limitText = url.searchParams.get('limit');
    const afterText = url.searchParams.get('after_id');
    if (
      (limitText !== null && !/^[1-9]\d{0,3}$/.test(limitText)) ||
      (afterText !== null && !/^\d{1,9}$/.test(afterText))
    ) {
      return fail(400, 'limit and after_id must be numbers');
    }
    const limit = Math.min(Number(limitText ?? s.pageLimit), s.pageLimit);
    const rows = deps.ledger.list(
      { dic: client.dic, code: client.code },
      new Date(from),
      deps.now(),
      Number(afterText ?? 0),
    );
    const page = rows.slice(0, limit).map((n) => ({
      ...n.body,
      id: n.seq,
      created_at: new Date(n.createdAtMs).toISOString(),
      happened_at: new Date(n.createdAtMs).toISOString(),
    }));
    return answer(200, page, rows.length > limit ? { 'x-result-truncated': 'true' } : {});
  }
  if (path === '/api/v1/payments') {
    if (req.method !== 'POST') return fail(405, 'POST only');
    if (client.role !== 'bank') return fail(403, 'only a bank may notify payments');
    return bankPayment(deps, req, fail, answer);
  }
  return fail(404, 'no such path');
}

const seenRequestIds = new WeakMap<NopLedger, Set<string>>();

async function bankPayment(
  deps: ErpApiDeps,
  req: IncomingMessage,
  fail: (status: number, detail: string) => void,
  answer: (status: number, body: unknown) => void,
): Promise<void> {
  const requestId = req.headers['x-request-id'];
  const date = req.headers.date;
  if (typeof requestId !== 'string' || !UUID.test(requestId))
    return fail(400, 'X-Request-ID (a UUID) is required');
  if (typeof date !== 'string' || !ISO_UTC.test(date)) return fail(400, 'Date (ISO-8601 UTC) is required');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    return fail(415, 'use application/json');
  const raw = await readSmallBody(req);
  if (raw === undefined) return fail(400, 'body too large');
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return fail(400, 'the body is not JSON');
  }
  const problem = notificationProblem(body);
  if (problem) return fail(422, problem);
  let seen = seenRequestIds.get(deps.ledger);
  if (!seen) {
    seen = new Set();
    seenRequestIds.set(deps.ledger, seen);
  }
  if (seen.has(requestId)) return fail(409, 'X-Request-ID was used before');
  seen.add(requestId);
  const n = body as SimNotificationBody;
  const tx = deps.ledger.transaction(n.endToEndId);
  if (!tx) return fail(404, `no transaction ${n.endToEndId}`);
  tx.receivedAt = deps.now().toISOString();
  tx.payment = {
    ...n.transactionAmount,
    ...(typeof (n.creditorAccount as { iban?: unknown } | undefined)?.iban === 'string'
      ? { iban: (n.creditorAccount as { iban: string }).iban }
      : {}),
  };
  await deps.deliver(tx.owner, n);
  tx.publishedAt = deps.now().toISOString();
  answer(202, { status: 'ACCEPTED', endToEndId: n.endToEndId });
}

/** The rules of a bank notification (research §2.6), or undefined when it keeps them. */
export function notificationProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body must be an object';
  const b = body as Record<string, unknown>;
  if (b.transactionStatus !== 'ACCC') return 'transactionStatus must be ACCC';
  const a = b.transactionAmount as Record<string, unknown> | undefined;
  if (a === null || typeof a !== 'object') return 'transactionAmount is required';
  if (typeof a.amount !== 'string' || !/^(0|[1-9]\d{0,8})\.\d{2}$/.test(a.amount))
    return 'transactionAmount.amount must be a string with exactly 2 decimals';
  if (a.currency !== 'EUR') return 'transactionAmount.currency must be EUR';
  if (typeof b.endToEndId !== 'string' || b.endToEndId.length < 1 || b.endToEndId.length > 35)
    return 'endToEndId must be 1-35 characters';
  if (typeof b.dataIntegrityHash !== 'string' || !/^[0-9a-f]{64}$/.test(b.dataIntegrityHash))
    return 'dataIntegrityHash must be 64 lower-case hex digits';
  return undefined;
}
