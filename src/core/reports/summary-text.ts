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
 * text (stored in the CHDÚ as such, without a number — DECISIONS 5 recorded in ADR 1006).
 */
export function summaryText(
  summary: DailySummary,
  qr: QrSummaryText | undefined,
  period: { from: string; to: string; printedAt: string },
  width: number,
): string {
  const lines: string[] = [];
  const pair = (left: string, right: string): void => {
    const room = width - right.length - 1;
    const l = left.length > room ? left.slice(0, Math.max(0, room)) : left;
    lines.push(`${l}${' '.repeat(Math.max(1, width - l.length - right.length))}${right}`);
  };
  const rule = (): void => {
    lines.push('-'.repeat(width));
  };
  const center = (text: string): void => {
    lines.push(`${' '.repeat(Math.max(0, Math.floor((width - text.length) / 2)))}${text}`);
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
  rule();
  pair('Tržba spolu', eur(summary.turnoverCents));
  pair(`  predaj (${summary.sales.count})`, eur(summary.sales.totalCents));
  pair(`  vrátenia (${summary.refunds.count})`, eur(summary.refunds.totalCents));
  pair(`  úhrady faktúr (${summary.invoicePayments.count})`, eur(summary.invoicePayments.totalCents));
  if (summary.roundingCents !== 0) pair('  zaokrúhlenie', eur(summary.roundingCents));
  rule();
  lines.push('Sadzba DPH: základ / DPH / spolu');
  for (const r of summary.vatRates) {
    pair(
      RATE_LABELS[r.title] ?? r.title,
      `${formatCents(r.baseCents)} / ${formatCents(r.vatCents)} / ${formatCents(r.grossCents)}`,
    );
  }
  const t = summary.vatTotal;
  pair('Spolu', `${formatCents(t.baseCents)} / ${formatCents(t.vatCents)} / ${formatCents(t.grossCents)}`);
  rule();
  lines.push('Platby');
  for (const p of summary.payments) pair(`  ${p.name}`, eur(p.totalCents));
  if (qr) {
    rule();
    lines.push('QR platby');
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
