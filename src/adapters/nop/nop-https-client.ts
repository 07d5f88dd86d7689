import https from 'node:https';
import { isIP } from 'node:net';
import { FiscalError } from '../../core/fiscal-error.js';
import type {
  IssuedPaymentId,
  NotifierCredentials,
  RawNotification,
} from '../../core/ports/payment-notifier.js';
import { isQrPaymentId } from '../../core/qr-payments/qr-payment-id.js';
import { tlsClientCredentials } from '../crypto/key-signer.js';
import type { NopEndpoints } from './nop-endpoints.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Largest answer read (a listing of 2 hours of one register is far smaller). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Pages of the listing read at most in one catch-up. */
const MAX_PAGES = 50;

/**
 * NOP's ERP REST API over HTTPS with the register's eKasa certificate as the TLS client identity
 * (research §2.2–2.3, ADR 0906). One attempt per call, bounded by `timeoutMs` (NOP's own idle
 * limit is 30 s); a failure is a FiscalError 801 or 802 and never an invented id.
 */
export class NopHttpsClient {
  constructor(
    private readonly endpoints: NopEndpoints,
    private readonly timeoutMs = 10_000,
  ) {}

  async newPaymentId(credentials: NotifierCredentials): Promise<IssuedPaymentId> {
    const answer = await this.#request('POST', '/api/v1/generateNewTransactionId', credentials);
    const body = answer.body as Record<string, unknown> | null;
    // FS client reads transaction_id, the Services API names it id: accept both (research §2.3).
    const id = body?.transaction_id ?? body?.id;
    const createdAt = body?.created_at ?? body?.createdAt;
    if (typeof id !== 'string' || !isQrPaymentId(id)) {
      throw new FiscalError(
        'NOP_UNREACHABLE',
        'NOP answered without a valid payment id; no payment id was issued.',
      );
    }
    return { id, createdAt: typeof createdAt === 'string' ? createdAt : new Date().toISOString() };
  }

  async listNotifications(credentials: NotifierCredentials, since: Date): Promise<RawNotification[]> {
    const out: RawNotification[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ date_from: since.toISOString(), limit: '100' });
      if (after !== undefined) query.set('after_id', after);
      const answer = await this.#request(
        'GET',
        `/api/v1/getAllTransactions/POKLADNICA-${credentials.cashRegisterCode}?${query}`,
        credentials,
      );
      const rows = rowsOf(answer.body);
      for (const row of rows) out.push({ payload: JSON.stringify(row), via: 'rest' });
      const last = rows.at(-1) as { id?: unknown } | undefined;
      // research §2.3: paging by `after_id` while `x-result-truncated: true`
      // ([?] R4's reading; research and R4 in ADR 0009).
      if (answer.headers['x-result-truncated'] !== 'true' || last === undefined) break;
      if (typeof last.id !== 'number' && typeof last.id !== 'string') break;
      after = String(last.id);
    }
    return out;
  }

  #request(method: 'GET' | 'POST', path: string, credentials: NotifierCredentials): Promise<Answer> {
    const tlsIdentity = tlsClientCredentials(credentials.signer);
    if (!tlsIdentity) {
      return Promise.reject(
        new FiscalError('NOP_REFUSED', 'The merchant key cannot be used as a TLS client identity.'),
      );
    }
    const url = new URL(path, this.endpoints.erpUrl);
    return new Promise<Answer>((resolve, reject) => {
      const req = https.request(
        url,
        {
          method,
          key: tlsIdentity.key,
          cert: tlsIdentity.cert,
          ...(this.endpoints.serverCaPem ? { ca: this.endpoints.serverCaPem } : {}),
          ...(isIP(url.hostname) === 0 ? { servername: url.hostname } : {}),
          minVersion: 'TLSv1.2',
          agent: false,
          headers: { accept: 'application/json', 'x-correlation-id': crypto.randomUUID() },
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(new Error('answer too large'));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            let body: unknown;
            try {
              body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              body = undefined;
            }
            const failure = statusFailure(status, res.headers['retry-after'], body);
            if (failure) reject(failure);
            else resolve({ status, headers: res.headers, body });
          });
          res.on('error', (e) => reject(unreachable(e)));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (e) => reject(unreachable(e)));
      req.end();
    });
  }
}

function rowsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  // The listing's envelope is not published ([?] research §7): accept a wrapped list too.
  for (const key of ['transactions', 'items', 'data']) {
    const v = (body as Record<string, unknown> | null)?.[key];
    if (Array.isArray(v)) return v;
  }
  throw new FiscalError('NOP_UNREACHABLE', 'NOP answered the listing with something that is not a list.');
}

function statusFailure(
  status: number,
  retryAfter: string | string[] | undefined,
  body: unknown,
): FiscalError | undefined {
  if (status >= 200 && status < 300) return undefined;
  const detail =
    typeof (body as { detail?: unknown } | null)?.detail === 'string'
      ? ` (${(body as { detail: string }).detail})`
      : '';
  if (status === 401 || status === 403) {
    return new FiscalError(
      'NOP_REFUSED',
      `NOP refused the register's certificate (HTTP ${status})${detail}: check that the eKasa authentication data are current and the register is allowed in this NOP environment.`,
      { nopStatus: status },
    );
  }
  if (status === 429) {
    const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    return new FiscalError('NOP_UNREACHABLE', `NOP asks to slow down (HTTP 429); try again later.`, {
      nopStatus: status,
      ...(Number.isFinite(seconds) ? { retryAfter: seconds } : {}),
    });
  }
  return new FiscalError(
    'NOP_UNREACHABLE',
    `NOP answered HTTP ${status}${detail}; no payment id was issued.`,
    {
      nopStatus: status,
    },
  );
}

function unreachable(e: Error): FiscalError {
  const code = (e as { code?: string }).code;
  // A TLS refusal of the client certificate shows as a handshake alert: still "refused".
  if (code !== undefined && /^ERR_SSL_.*(CERTIFICATE|HANDSHAKE|ALERT)/.test(code) && !/VERIFY/.test(code)) {
    return new FiscalError('NOP_REFUSED', `NOP refused the TLS connection (${code}).`);
  }
  return new FiscalError(
    'NOP_UNREACHABLE',
    `NOP could not be reached (${code ?? e.message}); no payment id was issued: offer another way to pay.`,
    undefined,
    { cause: e },
  );
}
