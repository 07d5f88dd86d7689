// Offline: the offline report (what waits to be sent, what the SFS rejected — with what to do
// about it — and what was set aside for the tax office), "send now", setting a rejected item aside
// (POST /api/offline/set-aside, ADR 0711) and the printed report (POST /api/report/offline,
// /api/document/send/offline).
import { get, post } from './api.js';
import { eur, field, fill, h, message, table } from './dom.js';
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

/**
 * The set-aside form of one rejected item: a reason (required, kept in the CHDÚ for the tax
 * office) and a confirm button; there is no undo, so it opens only on request.
 */
function setAsideButton(target, label, done, app) {
  const cell = h('div.set-aside');
  const open = h('button.secondary', { type: 'button', dataset: { setAside: label } }, t('off.setAside'));
  open.addEventListener('click', () => {
    const reason = h('input', { type: 'text', maxlength: 255, id: `off-reason-${label}` });
    const confirm = h('button.danger', { type: 'button' }, t('off.setAsideConfirm'));
    const result = h('div');
    confirm.addEventListener('click', async () => {
      confirm.disabled = true;
      try {
        await post('/api/offline/set-aside', { ...target, reason: reason.value });
        await done(message('ok', t('off.setAsideDone', { item: label })));
      } catch (e) {
        fill(result, message('error', app.errorText(e)));
        confirm.disabled = false;
      }
    });
    fill(
      cell,
      h('p.note', {}, t('off.setAsideNote')),
      field(t('off.setAsideReason'), reason),
      confirm,
      result,
    );
    reason.focus();
  });
  return fill(cell, open);
}

export async function offlineView(root, app) {
  const out = h('div', { id: 'off-result' });
  const body = h('div', { id: 'off-body' });

  async function draw() {
    let report;
    let asideDocs;
    let backlog;
    try {
      // The report marks a set-aside item only in words; the document list and status say it as a state.
      [report, asideDocs, backlog] = await Promise.all([
        post('/api/report/offline', {}),
        get('/api/documents?state=set-aside&limit=100').catch(() => ({ documents: [] })),
        get('/api/status/get')
          .then((s) => s.components.find((c) => c.component === 'OFFLINE_BACKLOG')?.details ?? {})
          .catch(() => ({})),
      ]);
    } catch (e) {
      fill(body, message('error', app.errorText(e)));
      return;
    }
    const asideIds = new Set(asideDocs.documents.map((d) => d.internalDocumentId));
    const asidePlaces = new Set(
      (backlog.setAside ?? []).filter((i) => i.kind === 'location').map((i) => i.internalId),
    );
    const waiting = report.documents.filter((d) => !d.status?.error);
    const stuck = report.documents.filter((d) => d.status?.error && !asideIds.has(d.internalDocumentId));
    const aside = report.documents.filter((d) => d.status?.error && asideIds.has(d.internalDocumentId));
    const places = report.locations ?? [];
    const refusal = backlog.registerRefusal;
    const redraw = async (note) => {
      fill(out, note);
      await draw();
      app.refreshTopState();
    };
    fill(
      body,
      refusal
        ? h(
            'div.msg.error',
            { id: 'off-refusal', role: 'alert' },
            h('p', {}, t('off.refusal', { code: refusal.errorCode, text: refusal.message })),
            h('p', {}, `${refusal.cause}: ${refusal.todo}.`),
          )
        : null,
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
                h('span.nowrap', {}, d.documentNumber),
                d.createDate,
                h('span.nowrap', {}, eur(d.amount)),
                `${d.status.error.errorCode} ${d.status.error.message}`,
                h(
                  'div',
                  {},
                  h('span.hint', {}, repairHint(d.status.error.errorCode)),
                  setAsideButton({ internalDocumentId: d.internalDocumentId }, d.documentNumber, redraw, app),
                ),
              ],
            })),
          ),
      aside.length === 0
        ? null
        : [
            h('h2', {}, t('off.aside')),
            h('p.note', {}, t('off.asideNote')),
            table(
              [t('docs.number'), t('docs.date'), t('docs.amount'), 'SFS'],
              aside.map((d) => ({
                attrs: { dataset: { number: d.documentNumber }, class: 'aside' },
                cells: [
                  h('span.nowrap', {}, d.documentNumber),
                  d.createDate,
                  h('span.nowrap', {}, eur(d.amount)),
                  `${d.status.error.errorCode} ${d.status.error.message}`,
                ],
              })),
            ),
          ],
      places.length === 0
        ? null
        : [
            h('h2', {}, t('off.locations')),
            table(
              [t('loc.current'), t('docs.date'), 'SFS', t('off.hint')],
              places.map((l) => {
                const err = l.status?.error;
                const isAside = asidePlaces.has(l.internalId);
                return {
                  attrs: { dataset: { location: String(l.internalId) } },
                  cells: [
                    describeLocation(l),
                    l.createDate,
                    err ? `${err.errorCode} ${err.message}` : t('send.unsent'),
                    !err
                      ? ''
                      : isAside
                        ? t('send.set-aside')
                        : setAsideButton(
                            { locationInternalId: l.internalId },
                            `#${l.internalId}`,
                            redraw,
                            app,
                          ),
                  ],
                };
              }),
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
