import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import { FAST_RESEND, storeSettings, usePortableMerchant, waitFor } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

const component = async (name: string) =>
  (await h!.get('/api/status/get')).body.components.find((c: { component: string }) => c.component === name);

describe('location of a PORTABLE register (capability 10)', () => {
  it('a STANDARD register gets 701 and stores nothing (ADR 0008 §6)', async () => {
    h = await startHarness();
    const res = await h.post('/api/location/update', { gps: { x: 17.112415, y: 48.1467828 } });
    expect(res.body).toMatchObject({ resultCode: 701, field: 'cashRegisterType' });
    expect(h.kasa.parts.index.lastLocation()).toBeUndefined();
    expect(h.sim.history()).toHaveLength(0);
    expect(await component('LOCATION')).toMatchObject({
      state: 'OK',
      details: { cashRegisterType: 'STANDARD' },
    });
  });

  it('before the first location: GET answers 404 / 506 and status warns; online update registers it', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    const none = await h.get('/api/location/get');
    expect(none.status).toBe(404);
    expect(none.body.resultCode).toBe(506);
    expect(await component('LOCATION')).toMatchObject({ state: 'WARNING', reasonCode: 506 });

    const res = await h.post('/api/location/update', { gps: { x: 17.112415, y: 48.1467828 } });
    expect(res.status).toBe(200);
    expect(res.body.resultCode).toBe(0);
    expect(res.body.location).toMatchObject({
      internalId: 1,
      kind: 'gps',
      gps: { x: 17.112415, y: 48.1467828 },
      sendingCount: 1,
      status: {},
    });
    expect(res.body.location.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.location.processDate).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    const sent = h.sim.history().at(-1)!;
    expect(sent).toMatchObject({ operation: 'RegisterLocation', outcome: 'accepted', sendingCount: '1' });
    expect((await h.get('/api/location/get')).body.location).toEqual(res.body.location);
    expect(await component('LOCATION')).toMatchObject({ state: 'OK' });
    // Locations take no document number (ADR 0008 §5).
    const doc = await h.post('/api/document/store', pd());
    expect(doc.body.document.sequenceId).toBe(1);
  });

  it('offline: stored and queued, then registered by the sender and listed in the report meanwhile', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    await storeSettings(h, FAST_RESEND);
    await h.sim.goOffline();
    const res = await h.post('/api/location/update', {
      physicalAddress: {
        country: 'Slovenská Republika',
        municipality: 'Bratislava',
        street: 'Heydukova',
        buildingNumber: '2155',
        propertyRegistrationNumber: '6',
        postalCode: '81108',
      },
    });
    expect(res.body.resultCode).toBe(0);
    expect(res.body.location.processDate).toBeUndefined();
    expect(res.body.location.status.warning).toMatchObject({ warningType: 'OFFLINE' });
    const report = await h.post('/api/report/offline', {});
    expect(report.body.documents).toEqual([]);
    expect(report.body.locations).toHaveLength(1);
    expect(report.body.locations[0]).toMatchObject({
      internalId: 1,
      kind: 'physicalAddress',
      physicalAddress: {
        municipality: 'Bratislava',
        street: 'Heydukova',
        postalCode: '81108',
        country: 'Slovenská Republika',
      },
      cashRegisterCode: res.body.location.cashRegisterCode,
    });
    expect(report.body.locations[0].merchant.organizationUnit.cashRegisterType).toBe('PORTABLE');
    const oldest = await h.get('/api/report/offline/oldest');
    expect(oldest.body.locations.map((l: { internalId: number }) => l.internalId)).toEqual([1]);

    await h.sim.goOnline();
    await waitFor(
      () => h!.kasa.parts.index.lastLocation()?.sendState === 'offline-sent',
      'the location resend',
    );
    const got = (await h.get('/api/location/get')).body.location;
    expect(got.processDate).toBeDefined();
    expect(got.sendingCount).toBeGreaterThanOrEqual(2);
    expect((await h.post('/api/report/offline', {})).body.locations).toEqual([]);
  });

  it('GET of a last location the SFS did not accept answers its SFS error naming it, stuck or set aside, never 0; registered again → 0 (ADR 0707 amended)', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    expect((await h.post('/api/location/update', { other: 'Trh Miletičova' })).body.resultCode).toBe(0);
    const expectRefused = async (code: number, internalId: number, errorCode: number, text: string) => {
      const got = await h!.get('/api/location/get');
      expect(got.status).toBe(500);
      expect(got.body).toMatchObject({
        resultCode: code,
        internalId,
        ekasaError: { errorType: 'EKASA', errorCode },
      });
      expect(got.body.location).toBeUndefined();
      expect(got.body.error).toContain(`The SFS rejected location ${internalId} with ${errorCode}`);
      expect(got.body.error).toContain(text);
    };

    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    expect((await h.post('/api/location/update', { other: 'Taxi BA 123 AA' })).body.resultCode).toBe(501);
    await expectRefused(
      501,
      2,
      -2,
      'repair it with POST /api/location/update {"locationInternalId": 2, "fixLocation": …}',
    );
    expect((await h.post('/api/location/update', { fixLocation: {} })).body.resultCode).toBe(0);
    expect((await h.get('/api/location/get')).body).toMatchObject({
      resultCode: 0,
      location: { internalId: 2 },
    });

    // Refused for its date (−108): 502, as location/update answered it (ADR 0714); set aside, the same.
    h.sim.injectFault({ kind: 'soap-fault', code: -108, text: 'Dátum vytvorenia polohy je neskorší.' });
    expect((await h.post('/api/location/update', { other: 'Trh Trnava' })).body.resultCode).toBe(502);
    await expectRefused(502, 3, -108, "check the register's clock");
    const aside = await h.post('/api/offline/set-aside', { locationInternalId: 3, reason: 'test' });
    expect(aside.body.resultCode).toBe(0);
    await expectRefused(502, 3, -108, 'set aside for the tax office');

    expect((await h.post('/api/location/update', { other: 'Trh Nitra' })).body.resultCode).toBe(0);
    expect((await h.get('/api/location/get')).body).toMatchObject({
      resultCode: 0,
      location: { internalId: 4 },
    });
  });

  it('validation: exactly one kind, GPS ranges, address and text lengths → 701 naming the field', async () => {
    h = await startHarness();
    await usePortableMerchant(h);
    const cases: Array<[unknown, string]> = [
      [{}, 'location'],
      [{ gps: { x: 17, y: 48 }, other: 'Taxi' }, 'location'],
      [{ gps: { x: 181, y: 48 } }, 'gps.x'],
      [{ gps: { x: 17, y: -91 } }, 'gps.y'],
      [{ gps: { x: 17 } }, 'gps.y'],
      [{ gps: { x: -0.00001234567890123457, y: 48 } }, 'gps.x'],
      [{ other: 'x'.repeat(256) }, 'other'],
      [{ other: ' ' }, 'other'],
      [{ physicalAddress: { street: 'Hlavná' } }, 'physicalAddress.municipality'],
      [
        { physicalAddress: { municipality: 'x'.repeat(101), street: 'Hlavná' } },
        'physicalAddress.municipality',
      ],
      [
        { physicalAddress: { municipality: 'Nitra', street: 'Hlavná', postalCode: '9490' } },
        'physicalAddress.postalCode',
      ],
      [
        { physicalAddress: { municipality: 'Nitra', street: 'Hlavná', buildingNumber: 'x'.repeat(21) } },
        'physicalAddress.buildingNumber',
      ],
      [
        { physicalAddress: { municipality: 'Nitra', street: 'Hlavná', propertyRegistrationNumber: '0' } },
        'physicalAddress.propertyRegistrationNumber',
      ],
      [{ gps: { x: 17, y: 48 }, fixLocation: { useLastMerchant: true } }, 'gps'],
    ];
    for (const [body, field] of cases) {
      const res = await h.post('/api/location/update', body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ resultCode: 701, field });
    }
    expect(h.kasa.parts.index.lastLocation()).toBeUndefined();
    expect((await h.post('/api/location/update', { other: 'x'.repeat(255) })).body.resultCode).toBe(0);
  });
});
