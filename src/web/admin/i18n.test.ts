import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PrintState, SendState } from '../../core/ports/indexed-records.js';
import type { PrinterStatus } from '../../core/ports/receipt-printer.js';
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
