import { formatCents } from '../receipt/format-cents.js';
import type { DailySummary } from './daily-summary.js';

/** The QR part of a summary (see ReportSummary): what the text prints of it. */
export interface QrSummaryText {
  tenderName: string;
  tenderCents: number;
  usedCents: number;
  paidNotUsedCents: number;
  lateCents: number;
  mismatchCents: number;
}

const RATE_LABELS: Record<string, string> = {
  VAT_23: '23 %',
  VAT_20: '20 %',
  VAT_19: '19 %',
  VAT_10: '10 %',
  VAT_5: '5 %',
  VAT_0: '0 %',
};

/**
 * The daily summary as lines for the receipt printer (`POST /api/report/summary/print`), at most
 * `width` characters each, Slovak like the receipts. Not a fiscal document: it is printed as free
 * text (stored in the CHDÚ as such, without a number — ADR 0008 §5, recorded in ADR 1006).
 *
 * A row whose label and value do not fit one line (58 mm paper has 32 characters) is wrapped: the
 * label on its own line(s), broken between words, the value right-aligned below — a label is
 * never cut (ADR 1006).
 */
export function summaryText(
  summary: DailySummary,
  qr: QrSummaryText | undefined,
  period: { from: string; to: string; printedAt: string },
  width: number,
): string {
  const lines: string[] = [];
  const pair = (left: string, right: string): void => {
    if (len(left) + 1 + len(right) <= width) {
      lines.push(`${left}${' '.repeat(width - len(left) - len(right))}${right}`);
      return;
    }
    const labelLines = wrap(left, width);
    const last = labelLines.at(-1) ?? '';
    if (len(last) + 1 + len(right) <= width) {
      lines.push(...labelLines.slice(0, -1), `${last}${' '.repeat(width - len(last) - len(right))}${right}`);
      return;
    }
    lines.push(...labelLines);
    for (const part of wrap(right, width)) lines.push(`${' '.repeat(width - len(part))}${part}`);
  };
  const text = (t: string): void => {
    lines.push(...wrap(t, width));
  };
  /** base / VAT / gross on the label's line when they fit, else one row each under the label. */
  const triple = (label: string, base: number, vat: number, gross: number): void => {
    const values = `${formatCents(base)} / ${formatCents(vat)} / ${formatCents(gross)}`;
    if (len(label) + 1 + len(values) <= width) {
      pair(label, values);
      return;
    }
    text(label);
    pair('  základ', formatCents(base));
    pair('  DPH', formatCents(vat));
    pair('  spolu', formatCents(gross));
  };
  const rule = (): void => {
    lines.push('-'.repeat(width));
  };
  const center = (t: string): void => {
    for (const part of wrap(t, width)) {
      lines.push(`${' '.repeat(Math.max(0, Math.floor((width - len(part)) / 2)))}${part}`);
    }
  };
  const eur = (cents: number): string => `${formatCents(cents)} EUR`;

  center('PREHĽAD TRŽBY');
  center(period.from === period.to ? period.from : `${period.from} – ${period.to}`);
  center('nie je daňový doklad');
  rule();
  const c = summary.counts;
  pair('Doklady spolu', String(c.total));
  pair('  PD / UF / ND', `${c.PD} / ${c.UF} / ${c.ND}`);
  pair('  VK / VY', `${c.VK} / ${c.VY}`);
  if (summary.notValid > 0) pair('  neplatné (čakajú na opravu)', String(summary.notValid));
  if (summary.setAside > 0) pair('  neplatné (odložené pre daňový úrad)', String(summary.setAside));
  rule();
  pair('Tržba spolu', eur(summary.turnoverCents));
  pair(`  predaj (${summary.sales.count})`, eur(summary.sales.totalCents));
  pair(`  vrátenia (${summary.refunds.count})`, eur(summary.refunds.totalCents));
  pair(`  úhrady faktúr (${summary.invoicePayments.count})`, eur(summary.invoicePayments.totalCents));
  if (summary.roundingCents !== 0) pair('  zaokrúhlenie', eur(summary.roundingCents));
  rule();
  text('Sadzba DPH: základ / DPH / spolu');
  for (const r of summary.vatRates) {
    triple(RATE_LABELS[r.title] ?? r.title, r.baseCents, r.vatCents, r.grossCents);
  }
  const t = summary.vatTotal;
  triple('Spolu', t.baseCents, t.vatCents, t.grossCents);
  rule();
  text('Platby (prijaté)');
  for (const p of summary.payments) {
    pair(`  ${p.name}`, eur(p.totalCents));
    if (p.changeCents !== 0) {
      pair('    vydané (výdavok)', eur(-p.changeCents));
      pair('    netto', eur(p.netCents));
    }
  }
  pair('Platby netto spolu', eur(summary.payments.reduce((a, p) => a + p.netCents, 0)));
  if (qr) {
    rule();
    text('QR platby');
    pair(`  na dokladoch (${qr.tenderName})`, eur(qr.tenderCents));
    pair('  zaplatené, nepoužité', eur(qr.paidNotUsedCents));
    if (qr.lateCents !== 0) pair('  zaplatené neskoro', eur(qr.lateCents));
    if (qr.mismatchCents !== 0) pair('  iná suma', eur(qr.mismatchCents));
  }
  rule();
  pair(`Vklady VK (${summary.deposits.count})`, eur(summary.deposits.totalCents));
  pair(`Výbery VY (${summary.withdrawals.count})`, eur(summary.withdrawals.totalCents));
  pair('Hotovosť v pokladni', eur(summary.cashInDrawerCents));
  rule();
  pair('Vytlačené', period.printedAt);
  return lines.join('\n');
}

/** Characters as the printer counts them (one per code point). */
const len = (t: string): number => [...t].length;

/**
 * `t` in lines of at most `width` characters, broken between words; continuation lines keep the
 * leading indent. Only a single word longer than a line is cut (no summary label has one).
 */
function wrap(t: string, width: number): string[] {
  if (len(t) <= width) return [t];
  const indent = t.match(/^ */)?.[0] ?? '';
  const room = Math.max(1, width - len(indent));
  const out: string[] = [];
  let current = '';
  for (const word of t
    .slice(indent.length)
    .split(' ')
    .filter((w) => w !== '')) {
    let rest = word;
    while (len(rest) > room) {
      if (current !== '') out.push(current);
      out.push([...rest].slice(0, room).join(''));
      rest = [...rest].slice(room).join('');
      current = '';
    }
    if (current === '') current = rest;
    else if (len(current) + 1 + len(rest) <= room) current = `${current} ${rest}`;
    else {
      out.push(current);
      current = rest;
    }
  }
  if (current !== '') out.push(current);
  return out.map((l) => `${indent}${l}`);
}
