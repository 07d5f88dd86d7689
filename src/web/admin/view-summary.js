// The daily summary (the shop's closing) for a day or a period, from GET /api/report/summary,
// and its print on the receipt printer.
import { apiPaths, get, post } from './api.js';
import { eur, field, fill, h, message, table, today } from './dom.js';
import { t } from './i18n.js';

const RATE = { VAT_23: '23 %', VAT_20: '20 %', VAT_19: '19 %', VAT_10: '10 %', VAT_5: '5 %', VAT_0: '0 %' };

export async function summaryView(root, app) {
  const from = h('input', { type: 'date', id: 'sum-from', value: today() });
  const to = h('input', { type: 'date', id: 'sum-to', value: today() });
  const body = h('div', { id: 'sum-body' });
  const out = h('div', { id: 'sum-result' });

  const period = () => ({ from: from.value || today(), to: to.value || from.value || today() });

  async function load() {
    const p = period();
    try {
      const answer = await get(`/api/report/summary?from=${p.from}&to=${p.to}`);
      draw(answer.summary);
      if (answer.qr) await drawQr(answer.qr, p);
    } catch (e) {
      fill(body, message('error', app.errorText(e)));
    }
  }

  const amount = (id, value) => h('span.amount', { id, dataset: { value: String(value) } }, eur(value));

  function draw(s) {
    fill(
      body,
      h(
        'section.card',
        {},
        h('h2', {}, t('sum.counts')),
        table(
          ['PD', 'UF', 'ND', 'VK', 'VY', t('sum.total')],
          [
            ['PD', 'UF', 'ND', 'VK', 'VY', 'total'].map((k) =>
              h('span', { id: `sum-count-${k}` }, String(s.counts[k])),
            ),
          ],
          'compact',
        ),
        s.notValid > 0 ? h('p.todo', { id: 'sum-not-valid' }, `${t('sum.notValid')}: ${s.notValid}`) : null,
        s.setAside > 0 ? h('p.todo', { id: 'sum-set-aside' }, `${t('sum.setAside')}: ${s.setAside}`) : null,
      ),
      h(
        'section.card',
        {},
        h('h2', {}, t('sum.vat')),
        table(
          [t('sum.rate'), t('sum.base'), t('sum.vatAmount'), t('sum.gross')],
          [
            ...s.vatRates.map((r) => ({
              attrs: { dataset: { rate: r.title } },
              cells: [
                RATE[r.title] ?? r.title,
                amount(`sum-${r.title}-base`, r.base),
                amount(`sum-${r.title}-vat`, r.vat),
                amount(`sum-${r.title}-sum`, r.sum),
              ],
            })),
            {
              attrs: { class: 'total' },
              cells: [
                t('sum.total'),
                amount('sum-vat-base', s.vatTotal.base),
                amount('sum-vat-vat', s.vatTotal.vat),
                amount('sum-vat-sum', s.vatTotal.sum),
              ],
            },
          ],
        ),
      ),
      h(
        'section.card',
        {},
        h(
          'dl.facts',
          {},
          h('dt', {}, t('sum.turnover')),
          h('dd', {}, amount('sum-turnover', s.turnover)),
          h('dt', {}, `${t('sum.sales')} (${s.sales.count})`),
          h('dd', {}, amount('sum-sales', s.sales.total)),
          h('dt', {}, `${t('sum.refunds')} (${s.refunds.count})`),
          h('dd', {}, amount('sum-refunds', s.refunds.total)),
          h('dt', {}, `${t('sum.invoices')} (${s.invoicePayments.count})`),
          h('dd', {}, amount('sum-invoices', s.invoicePayments.total)),
          h('dt', {}, t('sum.rounding')),
          h('dd', {}, amount('sum-rounding', s.rounding)),
        ),
      ),
      h(
        'section.card',
        {},
        h('h2', {}, t('sum.payments')),
        table(
          [t('sum.payments'), t('sum.received'), t('sum.change'), t('sum.net')],
          [
            ...s.payments.map((p) => ({
              attrs: { dataset: { payment: p.name } },
              cells: [
                p.name,
                amount(`sum-pay-${p.name}`, p.total),
                amount(`sum-pay-${p.name}-change`, p.change),
                amount(`sum-pay-${p.name}-net`, p.net),
              ],
            })),
            {
              attrs: { class: 'total' },
              cells: [
                t('sum.total'),
                '',
                '',
                amount('sum-pay-net', s.payments.reduce((a, p) => a + Math.round(p.net * 100), 0) / 100),
              ],
            },
          ],
        ),
        h('p.muted', {}, t('sum.paymentsNote')),
      ),
      h(
        'section.card',
        {},
        h(
          'dl.facts',
          {},
          h('dt', {}, `${t('sum.deposits')} (${s.deposits.count})`),
          h('dd', {}, amount('sum-deposits', s.deposits.total)),
          h('dt', {}, `${t('sum.withdrawals')} (${s.withdrawals.count})`),
          h('dd', {}, amount('sum-withdrawals', s.withdrawals.total)),
          h('dt', {}, h('strong', {}, t('sum.cash'))),
          h('dd', {}, h('strong', {}, amount('sum-cash', s.cashInDrawer))),
        ),
        h('p.muted', {}, t('sum.cashNote')),
      ),
    );
  }

  /** The QR tender (capability 15) and, for one day, that day's QR payments. */
  async function drawQr(qr, p) {
    const paths = await apiPaths();
    let day;
    if (p.from === p.to && paths.has('/api/qrpayment')) {
      day = await get(`/api/qrpayment?date=${p.from}`).catch(() => undefined);
    }
    body.append(
      h(
        'section.card',
        { id: 'sum-qr' },
        h('h2', {}, t('sum.qr')),
        h(
          'dl.facts',
          {},
          h('dt', {}, `${t('sum.qrTender')} (${qr.tenderName})`),
          h('dd', {}, amount('sum-qr-tender', qr.tender)),
          h('dt', {}, t('sum.qrUsed')),
          h('dd', {}, amount('sum-qr-used', qr.used)),
          h('dt', {}, t('sum.qrPaidNotUsed')),
          h('dd', {}, amount('sum-qr-paid', qr.paidNotUsed)),
          h('dt', {}, t('sum.qrLate')),
          h('dd', {}, amount('sum-qr-late', qr.late)),
          h('dt', {}, t('sum.qrMismatch')),
          h('dd', {}, amount('sum-qr-mismatch', qr.mismatch)),
        ),
        day && day.qrPayments.length > 0
          ? table(
              [t('sum.qrState'), t('docs.amount'), t('docs.number'), 'ID'],
              day.qrPayments.map((q) => ({
                attrs: { dataset: { qr: q.qrPaymentId, state: q.state } },
                cells: [q.state, eur(q.amount), q.document?.documentNumber ?? '', q.qrPaymentId.slice(0, 8)],
              })),
            )
          : null,
      ),
    );
  }

  const show = h('button', { type: 'submit', id: 'sum-show' }, t('sum.show'));
  const print = h('button.secondary', { type: 'button', id: 'sum-print' }, t('sum.print'));
  print.addEventListener('click', async () => {
    try {
      await post('/api/report/summary/print', period());
      fill(out, message('ok', t('sum.printed')));
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    }
  });
  const form = h(
    'form.filters',
    { id: 'sum-form' },
    field(t('sum.from'), from),
    field(t('sum.to'), to),
    show,
    print,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    load();
  });
  fill(root, h('h1', {}, t('sum.title')), form, out, body);
  await load();
  return {};
}
