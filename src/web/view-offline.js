// Offline: the offline report (what waits to be sent, what the SFS rejected — with what to do
// about it), "send now" and the printed report (POST /api/report/offline, /api/document/send/offline).
import { post } from './api.js';
import { eur, fill, h, message, table } from './dom.js';
import { has, t } from './i18n.js';

/** What to do about a document the SFS rejected with `code`. */
export function repairHint(code) {
  return has(`hint.${code}`) ? t(`hint.${code}`) : t('hint.generic');
}

function describeLocation(l) {
  if (l.gps) return `GPS ${l.gps.y}, ${l.gps.x}`;
  if (l.physicalAddress)
    return [l.physicalAddress.street, l.physicalAddress.municipality].filter(Boolean).join(', ');
  return l.other ?? '';
}

export async function offlineView(root, app) {
  const out = h('div', { id: 'off-result' });
  const body = h('div', { id: 'off-body' });

  async function draw() {
    let report;
    try {
      report = await post('/api/report/offline', {});
    } catch (e) {
      fill(body, message('error', app.errorText(e)));
      return;
    }
    const waiting = report.documents.filter((d) => !d.status?.error);
    const stuck = report.documents.filter((d) => d.status?.error);
    const places = report.locations ?? [];
    fill(
      body,
      h('h2', {}, t('off.waiting')),
      waiting.length === 0
        ? h('p.muted', { id: 'off-waiting-none' }, t('off.none'))
        : table(
            [t('docs.number'), t('docs.date'), t('docs.amount'), t('docs.attempts')],
            waiting.map((d) => ({
              attrs: { dataset: { number: d.documentNumber }, class: 'waiting' },
              cells: [d.documentNumber, d.createDate, eur(d.amount), String(d.sendingCount)],
            })),
          ),
      h('h2', {}, t('off.stuck')),
      stuck.length === 0
        ? h('p.muted', { id: 'off-stuck-none' }, t('off.none'))
        : table(
            [t('docs.number'), t('docs.date'), t('docs.amount'), 'SFS', t('off.hint')],
            stuck.map((d) => ({
              attrs: {
                dataset: { number: d.documentNumber, code: String(d.status.error.errorCode) },
                class: 'stuck',
              },
              cells: [
                d.documentNumber,
                d.createDate,
                eur(d.amount),
                `${d.status.error.errorCode} ${d.status.error.message}`,
                h('span.hint', {}, repairHint(d.status.error.errorCode)),
              ],
            })),
          ),
      places.length === 0
        ? null
        : [
            h('h2', {}, t('off.locations')),
            table(
              [t('loc.current'), t('docs.date'), 'SFS'],
              places.map((l) => [
                describeLocation(l),
                l.createDate,
                l.status?.error ? `${l.status.error.errorCode} ${l.status.error.message}` : t('send.unsent'),
              ]),
            ),
          ],
    );
  }

  const sendNow = h('button', { type: 'button', id: 'off-send' }, t('off.sendNow'));
  sendNow.addEventListener('click', async () => {
    sendNow.disabled = true;
    try {
      const sent = await post('/api/document/send/offline', {});
      fill(
        out,
        message('ok', t('off.sent', { n: (sent.documents?.length ?? 0) + (sent.locations?.length ?? 0) })),
      );
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    } finally {
      sendNow.disabled = false;
    }
    await draw();
  });
  const report = h('button.secondary', { type: 'button', id: 'off-report' }, t('off.report'));
  report.addEventListener('click', async () => {
    try {
      await post('/api/report/offline', { printer: {} });
      fill(out, message('ok', t('print.done')));
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    }
  });
  fill(root, h('h1', {}, t('off.title')), h('div.row', {}, sendNow, report), out, body);
  await draw();
  app.repeat(draw);
  return {};
}
