import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageRequestRefusal } from '../page-guard.js';
import { readSmallBody, sendError, sendJson } from './nop-sim-http.js';
import { type NopSimulator, SimPaymentRefused } from './nop-simulator.js';
import { type PaymeOrder, parsePaymeLink } from './payme-parser.js';

const PAY_KEYS = new Set(['payme', 'amount', 'wrongHash', 'delayMs']);

/**
 * The shape of `POST /__sim/pay` (what the bank app sends), or why it is refused (422). The amount
 * itself is then checked by the notification rules the bank API applies (notificationProblem).
 */
function payBodyProblem(body: Record<string, unknown>): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body must be an object';
  const unknown = Object.keys(body).filter((k) => !PAY_KEYS.has(k));
  if (unknown.length > 0) return `unknown member(s): ${unknown.join(', ')}`;
  if (typeof body.payme !== 'string') return 'payme (the link in the QR) is required';
  if (body.amount !== undefined && typeof body.amount !== 'string')
    return 'amount must be a string with exactly 2 decimals, e.g. "7.45"';
  if (body.wrongHash !== undefined && typeof body.wrongHash !== 'boolean')
    return 'wrongHash must be true or false';
  if (
    body.delayMs !== undefined &&
    (typeof body.delayMs !== 'number' ||
      !Number.isInteger(body.delayMs) ||
      body.delayMs < 0 ||
      body.delayMs > 600_000)
  )
    return 'delayMs must be a whole number of milliseconds, 0-600000';
  return undefined;
}

/**
 * The simulator's plain-HTTP face on loopback: the public payment history (research §2.3: no
 * mTLS, RFC 7807 errors) and the control API under `/__sim/` (docs/qr-payments.md):
 * `POST /__sim/pay {"payme": "<link>", "amount"?, "wrongHash"?, "delayMs"?}` pays like a bank app,
 * `POST /__sim/switches`, `POST /__sim/broker/drop {"refuseMs"}`, `POST /__sim/offline`,
 * `POST /__sim/online`, `POST /__sim/reset`, `GET /__sim/history`.
 */
export async function startNopControl(
  sim: NopSimulator,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    route(sim, req, res).catch((e: unknown) => sendError(res, 400, (e as Error).message));
  });
  await new Promise<void>((resolve) => server.listen(port, host, () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(sim: NopSimulator, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const path = new URL(req.url ?? '/', 'http://sim').pathname;
  const history = /^\/api\/v1\/getTransactionHistory\/(.*)$/.exec(path);
  if (history) {
    const id = history[1]!;
    const problem = (status: number, title: string, detail: string) =>
      sendJson(
        res,
        status,
        { type: 'about:blank', title, status, detail },
        { 'content-type': 'application/problem+json' },
      );
    if (!/^QR-[0-9a-f]{32}$/.test(id)) return problem(400, 'Invalid URL parameter', 'not a QR payment id');
    const tx = sim.ledger.transaction(id);
    if (!tx) return problem(404, 'Transaction not found', id);
    return sendJson(res, 200, {
      transactionId: tx.id,
      createdAt: tx.createdAt,
      ...(tx.receivedAt ? { receivedAt: tx.receivedAt, matchedAt: tx.receivedAt } : {}),
      ...(tx.publishedAt ? { publishedAt: tx.publishedAt, status: 'PUBLISHED' } : { status: 'CREATED' }),
      ...(tx.payment ? { payment: { amount: tx.payment.amount, currency: tx.payment.currency } } : {}),
      ...(tx.payment?.iban ? { creditorAccount: { iban: tx.payment.iban } } : {}),
    });
  }
  if (!path.startsWith('/__sim/')) return sendError(res, 404, 'no such path');
  const refused = pageRequestRefusal(req.headers);
  if (refused) return sendError(res, 403, refused);
  if (req.method === 'GET' && path === '/__sim/history') {
    return sendJson(res, 200, { erp: sim.erpHistory, broker: sim.brokerEvents });
  }
  if (req.method === 'GET' && path === '/__sim/') {
    return sendJson(res, 200, {
      erpUrl: sim.erpUrl,
      mqttUrl: sim.mqttUrl,
      erpSwitches: sim.erpSwitches,
      delivery: sim.delivery,
      connectedClients: sim.connectedClients,
      erpOffline: sim.erpOffline,
    });
  }
  if (req.method !== 'POST') return sendError(res, 405, 'POST');
  const raw = await readSmallBody(req);
  const body = (raw && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : {}) as Record<string, unknown>;
  switch (path) {
    case '/__sim/pay': {
      const refused = payBodyProblem(body);
      if (refused) return sendError(res, 422, refused);
      let order: PaymeOrder;
      try {
        order = parsePaymeLink(body.payme as string);
      } catch (e) {
        return sendError(res, 422, `payme: ${(e as Error).message}`);
      }
      try {
        await sim.pay({
          order,
          ...(typeof body.amount === 'string' ? { amount: body.amount } : {}),
          ...(body.wrongHash === true ? { wrongHash: true } : {}),
          ...(typeof body.delayMs === 'number' ? { delayMs: body.delayMs } : {}),
        });
      } catch (e) {
        if (e instanceof SimPaymentRefused) return sendError(res, e.status, e.message);
        throw e;
      }
      return sendJson(res, 200, { paid: order.paymentId, amount: body.amount ?? order.amount });
    }
    case '/__sim/switches': {
      const e = sim.erpSwitches;
      if (body.idField === 'id' || body.idField === 'transaction_id') e.idField = body.idField;
      for (const k of ['rateLimited', 'retryAfterSeconds', 'unavailable', 'pageLimit'] as const) {
        if (typeof body[k] === 'number') e[k] = Math.max(0, Math.trunc(body[k] as number));
      }
      const d = sim.delivery;
      if (typeof body.retain === 'boolean') d.retain = body.retain;
      if (typeof body.duplicate === 'boolean') d.duplicate = body.duplicate;
      if (typeof body.delayMs === 'number') d.delayMs = Math.max(0, Math.min(body.delayMs, 600_000));
      return sendJson(res, 200, { erpSwitches: e, delivery: d });
    }
    case '/__sim/broker/drop': {
      const ms = typeof body.refuseMs === 'number' ? Math.min(body.refuseMs, 600_000) : 0;
      if (body.outage === false)
        await sim.disconnectClients(ms, { forgetSessions: body.forgetSessions === true });
      else sim.dropBroker(ms);
      return sendJson(res, 200, { dropped: true });
    }
    case '/__sim/offline':
      await sim.goOffline();
      return sendJson(res, 200, { offline: true });
    case '/__sim/online':
      await sim.goOnline();
      return sendJson(res, 200, { offline: false });
    case '/__sim/reset':
      sim.reset();
      return sendJson(res, 200, { reset: true });
    default:
      return sendError(res, 404, 'no such control');
  }
}
