import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';
import { ACT_384_2025_START, cashDocumentIsSent } from './cash-sending.js';
import { resendDeadline } from './deadline.js';
import { OFFLINE_SETTING_DEFAULTS, readOfflineSettings } from './offline-settings.js';
import { nextSendingCount } from './sending-count.js';

describe('offline settings', () => {
  it('defaults when nothing is stored: 30 s first wait, 10 min maximum, batches of 100, 96 h, cash not forced', () => {
    expect(readOfflineSettings({})).toEqual({
      resendIntervalMs: 30_000,
      resendMaxIntervalMs: 600_000,
      resendBatchLimit: 100,
      resendDeadlineHours: 96,
      forceSendCashDocuments: false,
    });
    expect(OFFLINE_SETTING_DEFAULTS.resendDeadlineHours).toBe(96);
  });

  it('takes valid stored values and ignores invalid ones; the maximum is never below the first wait', () => {
    expect(
      readOfflineSettings({
        resendIntervalMs: 5000,
        resendMaxIntervalMs: 1000,
        resendBatchLimit: 0,
        resendDeadlineHours: 48,
        forceSendCashDocuments: 'yes',
      }),
    ).toEqual({
      resendIntervalMs: 5000,
      resendMaxIntervalMs: 5000,
      resendBatchLimit: 100,
      resendDeadlineHours: 48,
      forceSendCashDocuments: false,
    });
    expect(readOfflineSettings({ resendIntervalMs: 1.5 }).resendIntervalMs).toBe(30_000);
  });
});

describe('backoff', () => {
  it('doubles from the interval up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 60].map((n) => backoffDelay(n, 1000, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });
});

describe('resend deadline (ADR 0702)', () => {
  const created = '2026-03-02T10:00:00+01:00';
  it('runs from the first attempt, else from CreateDate: OK, WARNING from 24 h left, overdue after', () => {
    const at = (h: number) => new Date(Date.parse(created) + h * 3600_000);
    expect(resendDeadline({ createDate: created }, 96, at(71))?.state).toBe('ok');
    expect(resendDeadline({ createDate: created }, 96, at(72))?.state).toBe('warning');
    expect(resendDeadline({ createDate: created }, 96, at(96))?.state).toBe('warning');
    expect(resendDeadline({ createDate: created }, 96, at(96.001))?.state).toBe('overdue');
    const d = resendDeadline(
      { createDate: created, firstAttemptDate: '2026-03-02T12:00:00+01:00' },
      96,
      at(2),
    )!;
    expect(d.sendBy.toISOString()).toBe('2026-03-06T11:00:00.000Z');
    expect(d.ageMs).toBe(0);
    expect(d.leftMs).toBe(96 * 3600_000);
  });
});

describe('Act 384/2025 (ADR 0704)', () => {
  it('VK/VY created from 1 January 2026 00:00 Bratislava are not sent unless forced', () => {
    expect(ACT_384_2025_START.toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(cashDocumentIsSent(new Date('2025-12-31T22:59:59Z'), false)).toBe(true);
    expect(cashDocumentIsSent(new Date('2025-12-31T23:00:00Z'), false)).toBe(false);
    expect(cashDocumentIsSent(new Date('2026-06-01T10:00:00Z'), true)).toBe(true);
  });
});

describe('SendingCount of a resend (ADR 0705)', () => {
  it('is the recorded count + 1, and at least 2 when no attempt was recorded', () => {
    expect(nextSendingCount(0)).toBe(2);
    expect(nextSendingCount(1)).toBe(2);
    expect(nextSendingCount(7)).toBe(8);
  });
});
