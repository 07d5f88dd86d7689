import { describe, expect, it } from 'vitest';
import type { NewRegisterEvent } from '../../ports/register-events.js';
import type { ComponentStatus, RegisterStatusReport } from '../register-status.js';
import { StateWatcher } from './state-watcher.js';

function setup() {
  const components: Record<string, ComponentStatus> = {
    PRINTER: { component: 'PRINTER', state: 'OK', reasonCode: 0, reason: 'ok', details: { paper: 'ok' } },
    SFS: { component: 'SFS', state: 'OK', reasonCode: 0, reason: 'ok' },
    OFFLINE_BACKLOG: {
      component: 'OFFLINE_BACKLOG',
      state: 'OK',
      reasonCode: 0,
      reason: 'ok',
      details: { unsentDocuments: 0 },
    },
    MERCHANT: {
      component: 'MERCHANT',
      state: 'OK',
      reasonCode: 0,
      reason: 'ok',
      details: { daysLeft: 40, expirationDate: '2026-04-20' },
    },
  };
  let state = 'READY';
  let capacity = { capacityBlocks: 1000, freeBlocks: 900 };
  const published: NewRegisterEvent[] = [];
  const asked: boolean[] = [];
  const watcher = new StateWatcher({
    status: async ({ skipPrinter }): Promise<RegisterStatusReport> => {
      asked.push(!skipPrinter);
      return {
        state: state as 'READY',
        reasonCode: 0,
        reason: '',
        components: Object.values(components)
          .filter((c) => !(skipPrinter && c.component === 'PRINTER'))
          .map((c) => structuredClone(c)),
      };
    },
    capacity: async () => capacity,
    events: { publish: (e) => published.push(e) },
  });
  return {
    components,
    watcher,
    published,
    asked,
    types: () => published.map((e) => e.type),
    setState: (s: string) => {
      state = s;
    },
    setFree: (free: number) => {
      capacity = { capacityBlocks: 1000, freeBlocks: free };
    },
  };
}

describe('StateWatcher', () => {
  it('takes the first look as the baseline and publishes changes after it', async () => {
    const t = setup();
    t.components.PRINTER = {
      component: 'PRINTER',
      state: 'ERROR',
      reasonCode: 105,
      reason: 'no paper',
      details: { paper: 'out' },
    };
    await t.watcher.check();
    expect(t.published).toEqual([]);
    t.components.PRINTER = {
      component: 'PRINTER',
      state: 'OK',
      reasonCode: 0,
      reason: 'ok',
      details: { paper: 'ok' },
    };
    await t.watcher.check();
    await t.watcher.check(); // no change, no event
    expect(t.published).toEqual([
      { type: 'printer.changed', data: { state: 'OK', reasonCode: 0, reason: 'ok', paper: 'ok' } },
    ]);
  });

  it('SFS: unreachable when no usable answer, reachable again only after an accepted one', async () => {
    const t = setup();
    await t.watcher.check();
    t.components.SFS = { component: 'SFS', state: 'WARNING', reasonCode: 600, reason: 'down' };
    await t.watcher.check();
    t.components.SFS = { component: 'SFS', state: 'WARNING', reasonCode: 501, reason: 'rejected' };
    await t.watcher.check(); // an answer, but not an accepted one: still no "reachable"
    t.components.SFS = { component: 'SFS', state: 'WARNING', reasonCode: 600, reason: 'down' };
    await t.watcher.check();
    t.components.SFS = {
      component: 'SFS',
      state: 'OK',
      reasonCode: 0,
      reason: 'up',
      details: { lastOutcome: 'accepted' },
    };
    await t.watcher.check();
    expect(t.types()).toEqual(['sfs.unreachable', 'sfs.unreachable', 'sfs.reachable']);
  });

  it('backlog size and overall state changes', async () => {
    const t = setup();
    await t.watcher.check();
    t.components.OFFLINE_BACKLOG!.details = { unsentDocuments: 2 };
    t.setState('LAST_REQUEST_INVALID');
    await t.watcher.check();
    expect(t.published).toEqual([
      {
        type: 'backlog.changed',
        data: {
          state: 'OK',
          unsentDocuments: 2,
          unsentLocations: 0,
          stuckDocuments: 0,
          stuckLocations: 0,
          setAsideDocuments: 0,
          setAsideLocations: 0,
          registerRefusal: null,
        },
      },
      { type: 'register.state', data: { state: 'LAST_REQUEST_INVALID', reasonCode: 0, reason: '' } },
    ]);
  });

  it('backlog: an item set aside and a refusal of the whole register are changes too (ADR 0711)', async () => {
    const t = setup();
    t.components.OFFLINE_BACKLOG!.details = { unsentDocuments: 0, stuckDocuments: 1 };
    await t.watcher.check();
    t.components.OFFLINE_BACKLOG!.details = { unsentDocuments: 0, stuckDocuments: 0, setAsideDocuments: 1 };
    await t.watcher.check();
    t.components.OFFLINE_BACKLOG!.details = {
      unsentDocuments: 0,
      setAsideDocuments: 1,
      registerRefusal: { errorCode: -8, message: 'x' },
    };
    await t.watcher.check();
    await t.watcher.check();
    expect(
      t.published.map((e) => [
        e.type,
        e.data.stuckDocuments,
        e.data.setAsideDocuments,
        e.data.registerRefusal,
      ]),
    ).toEqual([
      ['backlog.changed', 0, 1, null],
      ['backlog.changed', 0, 1, -8],
    ]);
  });

  it('certificate expiry: 30, 14 and 7 days, each once, already at the first look', async () => {
    const t = setup();
    const days = (d: number) => {
      t.components.MERCHANT!.details = { daysLeft: d, expirationDate: '2026-04-20' };
    };
    days(20);
    await t.watcher.check();
    await t.watcher.check();
    days(13);
    await t.watcher.check();
    days(12);
    await t.watcher.check();
    days(6);
    await t.watcher.check();
    expect(t.published.map((e) => e.data.threshold)).toEqual([30, 14, 7]);
    // A renewed certificate (another expiry date) starts over.
    t.components.MERCHANT!.details = { daysLeft: 25, expirationDate: '2027-04-20' };
    await t.watcher.check();
    expect(t.published.at(-1)).toMatchObject({ type: 'certificate.expiring', data: { threshold: 30 } });
  });

  it('CHDÚ fill level: 80, 90, 95, 99 and 100 %, each once, read only when asked', async () => {
    const t = setup();
    t.setFree(150);
    await t.watcher.check(); // capacity not read
    await t.watcher.check({ capacity: true });
    await t.watcher.check({ capacity: true });
    t.setFree(40);
    await t.watcher.check({ capacity: true });
    t.setFree(0);
    await t.watcher.check({ capacity: true });
    expect(t.published.map((e) => [e.type, e.data.threshold])).toEqual([
      ['chdu.capacity', 80],
      ['chdu.capacity', 95],
      ['chdu.capacity', 100],
    ]);
  });

  it('sending deadline: 48, 24, 6 hours left and overdue', async () => {
    const t = setup();
    const sendBy = (hours: number) => {
      t.components.OFFLINE_BACKLOG!.details = {
        unsentDocuments: 1,
        oldest: {
          kind: 'document',
          documentNumber: '202603/4',
          internalDocumentId: 4,
          sendBy: '13.03.2026 12:00:00',
          timeLeftSeconds: hours * 3600,
        },
      };
    };
    sendBy(30);
    await t.watcher.check();
    sendBy(20);
    await t.watcher.check();
    sendBy(-1);
    await t.watcher.check();
    expect(
      t.published.filter((e) => e.type === 'backlog.deadline').map((e) => [e.data.threshold, e.data.overdue]),
    ).toEqual([
      [48, false],
      [24, false],
      [0, true],
    ]);
  });

  it('the quick look after an append leaves the printer alone and keeps its last state', async () => {
    const t = setup();
    await t.watcher.check();
    t.components.PRINTER = {
      component: 'PRINTER',
      state: 'ERROR',
      reasonCode: 105,
      reason: 'no paper',
      details: { paper: 'out' },
    };
    await t.watcher.check({ printer: false });
    expect(t.published).toEqual([]);
    await t.watcher.check();
    expect(t.types()).toEqual(['printer.changed']);
    expect(t.asked).toEqual([true, false, true]);
  });

  it('drops a report read while a writer was at work: nothing published, the baseline kept (ADR 0805)', async () => {
    const t = setup();
    await t.watcher.check();
    // Inside a sale: the document is stored, not yet printed.
    t.setState('NOT_READY');
    t.components.OFFLINE_BACKLOG!.details = { unsentDocuments: 1 };
    expect(await t.watcher.check({ settled: () => false })).toBe(false);
    // The sale is over: the register is as before it.
    t.setState('READY');
    t.components.OFFLINE_BACKLOG!.details = { unsentDocuments: 0 };
    expect(await t.watcher.check({ settled: () => true })).toBe(true);
    expect(t.types()).toEqual([]);
  });
});
