// Offline: what waits to be sent and what the SFS rejected (with what to do about it), "send
// now" and the printed report when this kasa has the offline endpoints (issue 10).
import { apiPaths, get, post } from './api.js';
import { eur, h, message, table } from './dom.js';
import { has, t } from './i18n.js';

/** What to do about a document the SFS rejected with `code`. */
export function repairHint(code) {
  return has(`hint.${code}`) ? t(`hint.${code}`) : t('hint.generic');
}

export async function offlineView(root, app) {
  const paths = await apiPaths();
  const canSend = paths.has('/api/document/send/offline');
  const canReport = paths.has('/api/report/offline');
  const out = h('div', { id: 'off-result' });
  const body = h('div', { id: 'off-body' });

  async function draw() {
    let waiting;
    let stuck;
    let status;
    try {
      [waiting, stuck, status] = await Promise.all([
        get('/api/documents?state=unsent&limit=100'),
        get('/api/documents?state=stuck&limit=100'),
        get('/api/status/get'),
      ]);
    } catch (e) {
      body.replaceChildren(message('error', app.errorText(e)));
      return;
    }
    const backlog = status.components.find((c) => c.component === 'OFFLINE_BACKLOG');
    const stuckRows = await Promise.all(
      stuck.documents.map(async (d) => {
        const v = await get(`/api/documents/view?id=${d.internalDocumentId}`).catch(() => undefined);
        const code = v?.sfs.lastAttempt?.errorCode;
        return {
          attrs: { dataset: { id: String(d.internalDocumentId) } },
          cells: [
            d.documentNumber,
            d.createDate,
            eur(d.amount),
            code === undefined ? '' : `${code} ${v.sfs.lastAttempt.errorText ?? ''}`,
            repairHint(code),
          ],
        };
      }),
    );
    body.replaceChildren(
      backlog
        ? h(`p.msg.${backlog.state === 'OK' ? 'ok' : 'info'}`, { id: 'off-backlog' }, backlog.reason)
        : null,
      h('h2', {}, t('off.waiting')),
      waiting.documents.length === 0
        ? h('p.muted', {}, t('off.none'))
        : table(
            [t('docs.number'), t('docs.date'), t('docs.amount'), t('docs.attempts')],
            waiting.documents.map((d) => [
              d.documentNumber,
              d.createDate,
              eur(d.amount),
              String(d.sendingCount),
            ]),
          ),
      h('h2', {}, t('off.stuck')),
      stuck.documents.length === 0
        ? h('p.muted', {}, t('off.none'))
        : table([t('docs.number'), t('docs.date'), t('docs.amount'), 'SFS', t('off.hint')], stuckRows),
    );
  }

  const sendNow = h('button', { type: 'button', id: 'off-send', disabled: !canSend }, t('off.sendNow'));
  sendNow.addEventListener('click', async () => {
    try {
      const sent = await post('/api/document/send/offline', {});
      out.replaceChildren(message('ok', t('off.sent', { n: sent.documents?.length ?? 0 })));
    } catch (e) {
      out.replaceChildren(message('error', app.errorText(e)));
    }
    draw();
  });
  const report = h('button', { type: 'button', id: 'off-report', disabled: !canReport }, t('off.report'));
  report.addEventListener('click', async () => {
    try {
      await post('/api/report/offline', { printer: {} });
      out.replaceChildren(message('ok', t('print.done')));
    } catch (e) {
      out.replaceChildren(message('error', app.errorText(e)));
    }
  });
  root.replaceChildren(
    h('h1', {}, t('off.title')),
    h('div.row', {}, sendNow, report),
    canSend
      ? null
      : h(
          'p.muted',
          { id: 'off-missing' },
          t('missing.endpoint', { what: 'POST /api/document/send/offline' }),
        ),
    out,
    body,
  );
  await draw();
  app.repeat(draw);
  return {};
}
