import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { CAREFUL_CHECK_NAMES, type CarefulCheck } from './careful-checks.js';
import type { SfsSimulator } from './sfs-simulator.js';
import { faultSchema, latencySchema, offlineSchema } from './sim-faults.js';
import { readJson } from './sim-http.js';

/** `{"amount-sum": false, …}`: switches careful checks off or on (ADR 0422). */
const carefulSchema = z.strictObject(
  Object.fromEntries(CAREFUL_CHECK_NAMES.map((name) => [name, z.boolean().optional()])) as Record<
    CarefulCheck,
    z.ZodOptional<z.ZodBoolean>
  >,
);

/** Identification data the SFS issued to a register (check −905). */
const merchantSchema = z.strictObject({
  cashRegisterCode: z.string().regex(/^[0-9]{16,17}$/),
  ico: z
    .string()
    .regex(/^[0-9]{8}$/)
    .optional(),
  icDph: z
    .string()
    .regex(/^SK[0-9]{8,10}$/)
    .optional(),
});

/**
 * `/__sim/` — the simulator's run-time control (JSON), for the `kasa sfs-sim` process where no
 * programmatic handle exists. docs/sfs.md shows each call with curl.
 */
export async function handleControl(
  sim: SfsSimulator,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const json = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  try {
    switch (`${req.method} ${path}`) {
      case 'GET /__sim/received':
        return void json(200, { requests: sim.history() });
      case 'POST /__sim/reset':
        sim.reset();
        return void json(200, { ok: true });
      case 'GET /__sim/faults':
        return void json(200, sim.pendingFaults());
      case 'POST /__sim/fault': {
        const queued = sim.injectFault(faultSchema.parse(await readJson(req)));
        return void json(200, { queued, ...sim.pendingFaults() });
      }
      case 'POST /__sim/latency': {
        const { ms, count } = latencySchema.parse(await readJson(req));
        sim.setLatency(ms, count);
        return void json(200, sim.pendingFaults());
      }
      case 'GET /__sim/careful':
        return void json(200, { checks: sim.carefulChecks() });
      case 'POST /__sim/careful': {
        sim.setCarefulChecks(carefulSchema.parse(await readJson(req)));
        return void json(200, { checks: sim.carefulChecks() });
      }
      case 'POST /__sim/merchant': {
        const { cashRegisterCode, ico, icDph } = merchantSchema.parse(await readJson(req));
        sim.registerMerchantIdentity({ cashRegisterCode, ico, icDph });
        return void json(200, { ok: true });
      }
      case 'POST /__sim/offline': {
        const { ms } = offlineSchema.parse(await readJson(req));
        // Answer first: going offline closes every connection, this one included.
        res.once('finish', () => void sim.goOffline(ms));
        return void json(200, { offlineForMs: ms });
      }
      default:
        return void json(404, { error: `unknown control endpoint ${req.method} ${path}` });
    }
  } catch (e) {
    if (e instanceof z.ZodError || e instanceof SyntaxError) return void json(400, { error: e.message });
    throw e;
  }
}
