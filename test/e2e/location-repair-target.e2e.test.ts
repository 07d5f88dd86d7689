import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import { NO_RETRY, storeSettings, usePortableMerchant } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

const SCHEMA = { kind: 'soap-fault', code: -2, text: 'Chyba schémy.' } as const;

/** A PORTABLE register whose locations 1 and 2 were stored offline and rejected on the resend. */
async function twoStuck(harness: Harness): Promise<void> {
  await usePortableMerchant(harness);
  await storeSettings(harness, NO_RETRY);
  await harness.sim.goOffline();
  for (const other of ['Trh Miletičova', 'Taxi BA 123 AA'])
    expect((await harness.post('/api/location/update', { other })).body.resultCode).toBe(0);
  await harness.sim.goOnline();
  harness.sim.injectFault({ ...SCHEMA, count: 2 });
  await harness.post('/api/document/send/offline', {});
  expect([stateOf(harness, 1), stateOf(harness, 2)]).toEqual(['stuck', 'stuck']);
}

function stateOf(harness: Harness, locationNo: number): string | undefined {
  return harness.kasa.parts.index.findLocation(locationNo)?.sendState;
}

/** What a request must leave alone: the CHDÚ, the SFS and the printer. */
function effects(harness: Harness): { records: number | undefined; requests: number; jobs: number } {
  return {
    records: harness.kasa.parts.journal.head()?.recordNo,
    requests: harness.sim.history().length,
    jobs: harness.printer.history.length,
  };
}

describe('fixLocation naming its location (locationInternalId, ADR 0717)', () => {
  it('a repeated fix with the target answers the repaired location and leaves the other stuck one alone; the same without the target repairs the other one', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await twoStuck(h);

    // The last rejected location is repaired first (ADR 0708).
    const first = await h.post('/api/location/update', { locationInternalId: 2, fixLocation: {} });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ resultCode: 0, location: { internalId: 2 } });
    expect(stateOf(h, 2)).toBe('offline-sent');
    const before = effects(h);
    const other = h.kasa.parts.index.findLocation(1)!;

    // The POS never got the first answer and repeats the request: location 2 as it stands now.
    const retry = await h.post('/api/location/update', { locationInternalId: 2, fixLocation: {} });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(effects(h)).toEqual(before);
    const untouched = h.kasa.parts.index.findLocation(1)!;
    expect(untouched).toMatchObject({ sendState: 'stuck', sendingCount: other.sendingCount });
    expect(untouched.repairedBy).toBeUndefined();

    // The same repeat without the target (the API text's request) goes to the other stuck location.
    const blind = await h.post('/api/location/update', { fixLocation: {} });
    expect(blind.body).toMatchObject({ resultCode: 0, location: { internalId: 1 } });
    expect(stateOf(h, 1)).toBe('offline-sent');
    expect(h.sim.history().length).toBeGreaterThan(before.requests);
  });

  it('a stuck location that is not the last rejected → 701 naming locationInternalId and the one to repair first; nothing written or sent', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await twoStuck(h);
    const before = effects(h);
    const refused = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ resultCode: 701, field: 'locationInternalId' });
    expect(refused.body.error).toContain('location 2 (locationInternalId 2)');
    expect(refused.body.error).toContain('must be repaired first');
    expect(refused.body.error).toContain('{"locationInternalId": 2, "fixLocation": …}');
    expect(effects(h)).toEqual(before);
    expect([stateOf(h, 1), stateOf(h, 2)]).toEqual(['stuck', 'stuck']);
    // Naming the last rejected one repairs it; then the other one is the one to repair.
    const fixed = await h.post('/api/location/update', { locationInternalId: 2, fixLocation: {} });
    expect(fixed.body).toMatchObject({ resultCode: 0, location: { internalId: 2 } });
    const next = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(next.body).toMatchObject({ resultCode: 0, location: { internalId: 1 } });
  });

  it('a location repaired while the SFS could not be reached (queued) answers 0 as it stands on a repeat', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    await storeSettings(h, NO_RETRY);
    h.sim.injectFault(SCHEMA);
    expect((await h.post('/api/location/update', { other: 'Taxi BA 123 AA' })).body.resultCode).toBe(501);
    await h.sim.goOffline();
    const first = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(first.body).toMatchObject({ resultCode: 0, location: { internalId: 1 } });
    expect(stateOf(h, 1)).toBe('unsent');
    const before = effects(h);
    const retry = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(retry.body).toEqual(first.body);
    expect(effects(h)).toEqual(before);
    expect(h.kasa.parts.index.findLocation(1)!.sendingCount).toBe(2);
  });

  it('a set-aside location answers its SFS error; nothing written or sent', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    await storeSettings(h, NO_RETRY);
    h.sim.injectFault(SCHEMA);
    expect((await h.post('/api/location/update', { other: 'Taxi BA 123 AA' })).body.resultCode).toBe(501);
    const aside = await h.post('/api/offline/set-aside', { locationInternalId: 1, reason: 'test' });
    expect(aside.body.resultCode).toBe(0);
    const before = effects(h);
    const res = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      resultCode: 501,
      internalId: 1,
      ekasaError: { errorType: 'EKASA', errorCode: -2 },
    });
    expect(res.body.error).toContain('set aside for the tax office');
    expect(res.body.location).toBeUndefined();
    expect(effects(h)).toEqual(before);
    expect(stateOf(h, 1)).toBe('set-aside');
  });

  it('a location never rejected → 701 naming locationInternalId and the one that waits; an unknown one → 506 (HTTP 404); a bad value, or the target without fixLocation → 701', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    await storeSettings(h, NO_RETRY);
    expect((await h.post('/api/location/update', { other: 'Trh Miletičova' })).body.resultCode).toBe(0);
    h.sim.injectFault(SCHEMA);
    const stuck = await h.post('/api/location/update', { other: 'Taxi BA 123 AA' });
    expect(stuck.body).toMatchObject({ resultCode: 501, internalId: 2 });
    const before = effects(h);

    const registered = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(registered.body).toMatchObject({ resultCode: 701, field: 'locationInternalId' });
    expect(registered.body.error).toContain('was never rejected');
    expect(registered.body.error).toContain('location 2 (locationInternalId 2)');

    const unknown = await h.post('/api/location/update', { locationInternalId: 99, fixLocation: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.resultCode).toBe(506);
    expect(unknown.body.error).toContain('locationInternalId 99');

    for (const value of [0, -1, 1.5, '2', 2_147_483_648]) {
      const bad = await h.post('/api/location/update', { locationInternalId: value, fixLocation: {} });
      expect(bad.body, JSON.stringify(value)).toMatchObject({ resultCode: 701, field: 'locationInternalId' });
    }
    // It names the location a fix is for: beside a new location it is refused, not ignored.
    const alone = await h.post('/api/location/update', { locationInternalId: 2, other: 'Trh Trnava' });
    expect(alone.body).toMatchObject({ resultCode: 701, field: 'locationInternalId' });
    expect(alone.body.error).toContain('give it with fixLocation');
    expect(effects(h)).toEqual(before);
    expect(stateOf(h, 2)).toBe('stuck');
  });

  it('the 501 answers and the status name the target, and the request they show repairs that location', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    await storeSettings(h, NO_RETRY);
    h.sim.injectFault(SCHEMA);
    const hint = '{"locationInternalId": 1, "fixLocation": …}';
    const rejected = await h.post('/api/location/update', { other: 'Taxi BA 123 AA' });
    expect(rejected.body).toMatchObject({ resultCode: 501, internalId: 1 });
    expect(rejected.body.error).toContain(`POST /api/location/update ${hint}`);
    const store = await h.post('/api/document/store', pd());
    expect(store.body).toMatchObject({ resultCode: 501, lastRequest: { kind: 'location', internalId: 1 } });
    expect(store.body.error).toContain(`POST /api/location/update ${hint}`);
    const status = (await h.get('/api/status/get')).body.components.find(
      (c: { component: string }) => c.component === 'LOCATION',
    );
    expect(status).toMatchObject({ state: 'ERROR', reasonCode: 501 });
    expect(status.reason).toContain(`POST /api/location/update ${hint}`);

    const fixed = await h.post('/api/location/update', { locationInternalId: 1, fixLocation: {} });
    expect(fixed.body).toMatchObject({ resultCode: 0, location: { internalId: 1 } });
  });

  it('with two stuck, OFFLINE_BACKLOG names the one to repair next (the last), the report names each its own, and the status hint repairs', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await twoStuck(h);
    const backlog = (await h.get('/api/status/get')).body.components.find(
      (c: { component: string }) => c.component === 'OFFLINE_BACKLOG',
    );
    expect(backlog).toMatchObject({ state: 'ERROR', reasonCode: 501 });
    // Locations are repaired newest first (ADR 0708/0717): the oldest would answer 701.
    expect(backlog.reason).toContain('the next to repair is location 2');
    expect(backlog.reason).toContain('POST /api/location/update {"locationInternalId": 2, "fixLocation": …}');
    const report = await h.post('/api/report/offline', {});
    const details = report.body.locations.map(
      (l: { internalId: number; status: { error: { detail: string } } }) => [
        l.internalId,
        l.status.error.detail,
      ],
    );
    expect(details).toHaveLength(2);
    for (const [id, detail] of details)
      expect(detail).toContain(`{"locationInternalId": ${id}, "fixLocation": …}`);
    const fixed = await h.post('/api/location/update', { locationInternalId: 2, fixLocation: {} });
    expect(fixed.body).toMatchObject({ resultCode: 0, location: { internalId: 2 } });
  });
});
