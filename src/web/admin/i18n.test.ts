import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PrintState, SendState } from '../../core/ports/indexed-records.js';
import type { PrinterStatus } from '../../core/ports/receipt-printer.js';
import type { ResultName } from '../../core/result-codes.js';
import { COMPONENTS, type ComponentState } from '../../core/services/register-status.js';

// The admin page builds these keys from values the API answers (`component.${c.component}`,
// `send.${d.sendState}`…); a value without its key showed the key itself on the page.
const COMPONENT_STATES: Record<ComponentState, true> = {
  OK: true,
  WARNING: true,
  ERROR: true,
  NOT_CONFIGURED: true,
};
const SEND_STATES: Record<SendState, true> = {
  unsent: true,
  online: true,
  'offline-sent': true,
  stuck: true,
  'not-sent': true,
  'set-aside': true,
};
const PRINT_STATES: Record<PrintState, true> = {
  pending: true,
  printed: true,
  failed: true,
  electronic: true,
};
const PAPER: Record<PrinterStatus['paper'], true> = { ok: true, 'near-end': true, out: true, unknown: true };

describe('admin page words', () => {
  const i18n = readFileSync(new URL('./i18n.js', import.meta.url), 'utf8');
  const keys = [
    ...COMPONENTS.map((c) => `component.${c}`),
    ...Object.keys(COMPONENT_STATES).map((s) => `state.${s}`),
    ...Object.keys(SEND_STATES).map((s) => `send.${s}`),
    ...Object.keys(PRINT_STATES).map((s) => `print.${s}`),
    ...Object.keys(PAPER).map((s) => `paper.${s}`),
  ];

  it.each(keys)('%s is named in Slovak and in English', (key) => {
    expect(i18n.split(`'${key}':`).length - 1).toBe(2);
  });
});

// The overall state `GET /api/status/get` can report (readiness refusals: merchant session and
// register refusal (ADR 0711), CHDÚ consistency check; blockers: last request, unprinted document,
// backlog past its deadline). The page names each in words, never by its raw name (review s12 M2).
const STATUS_STATES: Record<
  Extract<
    ResultName,
    | 'MERCHANT_CERTIFICATE_ERROR'
    | 'MERCHANT_CERTIFICATE_EXPIRED'
    | 'MERCHANT_WRONG_FORMAT'
    | 'LAST_DOCUMENT_NOT_PRINTED'
    | 'LAST_REQUEST_INVALID'
    | 'LOCATION_NEEDS_REPAIR'
    | 'CHDU_NOT_CONNECTED'
    | 'CHDU_WRITE_LIMIT'
    | 'CHDU_WRITE_ERROR'
    | 'SFS_COMMUNICATION_ERROR'
    | 'INCORRECT_TIME'
    | 'BUSY'
    | 'UNKNOWN'
  >,
  true
> = {
  MERCHANT_CERTIFICATE_ERROR: true,
  MERCHANT_CERTIFICATE_EXPIRED: true,
  MERCHANT_WRONG_FORMAT: true,
  LAST_DOCUMENT_NOT_PRINTED: true,
  LAST_REQUEST_INVALID: true,
  LOCATION_NEEDS_REPAIR: true,
  CHDU_NOT_CONNECTED: true,
  CHDU_WRITE_LIMIT: true,
  CHDU_WRITE_ERROR: true,
  SFS_COMMUNICATION_ERROR: true,
  INCORRECT_TIME: true,
  BUSY: true,
  UNKNOWN: true,
};

describe('admin page words for the status', async () => {
  // A browser module without type declarations: imported by a computed name.
  const i18n = await import(new URL('./i18n.js', import.meta.url).href);
  const text = readFileSync(new URL('./i18n.js', import.meta.url), 'utf8');

  it.each(Object.keys(STATUS_STATES))('the state %s is named in words in both languages', (state) => {
    expect(text.split(`'reg.${state}':`).length - 1).toBe(2);
    expect(i18n.stateLabel(state)).not.toContain(state);
  });

  it('a state without words is not shown by its raw name', () => {
    expect(i18n.stateLabel('SOMETHING_NEW')).not.toContain('SOMETHING_NEW');
    expect(i18n.stateLabel('READY')).toBe('PRIPRAVENÁ');
  });

  it('Slovak days: 1 deň, 2–4 dni, 5 and more dní', () => {
    const days = (n: number) => i18n.t(i18n.countKey('status.daysLeft', n), { n, date: 'D' });
    expect(days(1)).toBe('zostáva 1 deň (do D)');
    expect(days(2)).toBe('zostávajú 2 dni (do D)');
    expect(days(4)).toBe('zostávajú 4 dni (do D)');
    expect(days(5)).toBe('zostáva 5 dní (do D)');
    expect(days(0)).toBe('zostáva 0 dní (do D)');
  });

  it('Slovak numbers have a decimal comma', () => {
    expect(i18n.decimal(963.2, 1)).toBe('963,2');
    expect(i18n.decimal(12.5)).toBe('12,5');
  });

  it('no repair hint or to-do tells a shop owner to call the API', () => {
    const lines = text.split('\n').filter((l) => /'(hint|todo|reg)\./.test(l) || /^\s+['"]/.test(l));
    expect(lines.filter((l) => l.includes('/api/'))).toEqual([]);
    expect(i18n.t('hint.generic')).not.toContain('/api/');
  });
});
