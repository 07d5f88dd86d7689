import { JsonClient } from '../lib/http-client.js';
import type { ServeProcess } from '../lib/serve-process.js';
import { msSince, type Summary, summarize } from '../lib/stats.js';
import type { SeededKeys } from '../seed/bulk-seed.js';

export const LOOKUP_KINDS = ['sequenceId', 'uuid', 'okp', 'pkp', 'externalId', 'last'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export interface LookupRun {
  byKind: Record<LookupKind, Summary>;
  all: Summary;
}

function request(kind: LookupKind, k: SeededKeys): Record<string, unknown> {
  switch (kind) {
    case 'sequenceId':
      return { documentBySequenceId: { sequenceId: k.sequenceId, month: k.month, year: k.year } };
    case 'uuid':
      return { documentByUUID: { uuid: k.uuid } };
    case 'okp':
      return { documentByOkp: { okp: k.okp } };
    case 'pkp':
      return { documentByPkp: { pkp: k.pkp } };
    case 'externalId':
      return { documentByExternalId: { externalId: k.externalId } };
    case 'last':
      return {};
  }
}

/**
 * `POST /api/document/get` over HTTP, the six kinds interleaved in a fixed pseudo-random order
 * (so a burst of load on the machine hits them all alike), each answer checked against the
 * document it must find: a wrong or missing document fails the run.
 */
export async function lookUp(
  serve: ServeProcess,
  samples: readonly SeededKeys[],
  last: SeededKeys,
  perKind: number,
): Promise<LookupRun> {
  const client = new JsonClient(serve.url);
  const times: Record<LookupKind, number[]> = {
    sequenceId: [],
    uuid: [],
    okp: [],
    pkp: [],
    externalId: [],
    last: [],
  };
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  try {
    // Warm-up: the first requests of a connection and of each route are not the steady state.
    for (const kind of LOOKUP_KINDS) await client.post('/api/document/get', request(kind, last));
    for (let n = 0; n < perKind * LOOKUP_KINDS.length; n++) {
      const kind = LOOKUP_KINDS[n % LOOKUP_KINDS.length]!;
      const target = kind === 'last' ? last : samples[next() % samples.length]!;
      const s = process.hrtime.bigint();
      const answer = await client.post('/api/document/get', request(kind, target));
      times[kind].push(msSince(s));
      const doc = answer.body?.document;
      if (answer.body?.resultCode !== 0 || doc?.okp !== target.okp) {
        throw new Error(
          `look-up by ${kind} of ${target.externalId}: ${JSON.stringify(answer.body).slice(0, 300)}`,
        );
      }
    }
  } finally {
    client.close();
  }
  const byKind = Object.fromEntries(LOOKUP_KINDS.map((k) => [k, summarize(times[k])])) as Record<
    LookupKind,
    Summary
  >;
  return { byKind, all: summarize(Object.values(times).flat()) };
}
