// Documents: latest first, paged; search by number, OKP, UUID or external id (POST
// /api/document/get); open one to see its receipt image, SFS state and attempts; print a copy.
import { get, post } from './api.js';
import { eur, field, fill, h, message, table } from './dom.js';
import { t } from './i18n.js';

/** The look-up member of POST /api/document/get a typed text stands for. */
export function lookupFor(text) {
  const q = text.trim();
  const number = /^(\d{4})(\d{2})\/(\d+)$/.exec(q);
  if (number) {
    return {
      documentBySequenceId: {
        year: Number(number[1]),
        month: Number(number[2]),
        sequenceId: Number(number[3]),
      },
    };
  }
  if (/^O-[0-9A-F]{20,40}(-TEST)?$/i.test(q)) return { documentByUUID: { uuid: q } };
  if (/^[0-9A-F]{8}(-[0-9A-F]{8}){4}$/i.test(q)) return { documentByOkp: { okp: q } };
  return { documentByExternalId: { externalId: q } };
}

function bySequence(documentNumber) {
  const m = /^(\d{4})(\d{2})\/(\d+)$/.exec(documentNumber);
  return { year: Number(m[1]), month: Number(m[2]), sequenceId: Number(m[3]) };
}

export async function documentsView(root, app) {
  const state = { cursors: [undefined], filter: {}, searching: false };
  const list = h('div', { id: 'doc-list' });
  const detail = h('div', { id: 'doc-detail' });
  const from = h('input', { type: 'date', id: 'doc-from' });
  const to = h('input', { type: 'date', id: 'doc-to' });
  const type = h(
    'select',
    { id: 'doc-type' },
    h('option', { value: '' }, t('docs.all')),
    ['PD', 'UF', 'ND', 'VK', 'VY'].map((x) => h('option', { value: x }, x)),
  );
  const search = h('input', { type: 'search', id: 'doc-search', placeholder: t('docs.search') });

  async function load() {
    const cursor = state.cursors.at(-1);
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(state.filter)) if (v) params.set(k, v);
    if (cursor !== undefined) params.set('cursor', String(cursor));
    params.set('limit', '20');
    try {
      const page = await get(`/api/documents?${params}`);
      drawList(page.documents, page.nextCursor);
    } catch (e) {
      fill(list, message('error', app.errorText(e)));
    }
  }

  function firstPage() {
    state.cursors = [undefined];
    load();
  }

  function olderPage(cursor) {
    state.cursors.push(cursor);
    load();
  }

  function drawList(documents, nextCursor) {
    const rows = documents.map((d) => ({
      attrs: { dataset: { id: String(d.internalDocumentId), number: d.documentNumber }, class: 'clickable' },
      cells: [
        h('button.link', { type: 'button', onclick: () => open(d.internalDocumentId) }, d.documentNumber),
        d.createDate,
        d.type,
        eur(d.amount),
        t(`send.${d.sendState}`),
        t(`print.${d.printState}`),
      ],
    }));
    const pager = h(
      'div.row',
      {},
      state.cursors.length > 1
        ? h('button', { type: 'button', id: 'doc-first', onclick: firstPage }, t('docs.first'))
        : null,
      nextCursor !== undefined
        ? h(
            'button',
            { type: 'button', id: 'doc-more', onclick: () => olderPage(nextCursor) },
            t('docs.more'),
          )
        : null,
    );
    fill(
      list,
      documents.length === 0
        ? message('info', t('docs.empty'))
        : table(
            [
              t('docs.number'),
              t('docs.date'),
              t('docs.type'),
              t('docs.amount'),
              t('docs.state'),
              t('docs.print'),
            ],
            rows,
          ),
      pager,
    );
  }

  async function open(id) {
    fill(detail, message('info', t('loading')));
    let v;
    try {
      v = await get(`/api/documents/view?id=${id}`);
    } catch (e) {
      fill(detail, message('error', app.errorText(e)));
      return;
    }
    const d = v.document;
    const out = h('div', { id: 'copy-result' });
    const copy = h('button', { type: 'button', id: 'doc-copy' }, t('docs.copy'));
    copy.addEventListener('click', async () => {
      copy.disabled = true;
      try {
        await post('/api/document/get', { documentBySequenceId: bySequence(d.documentNumber), printer: {} });
        fill(out, message('ok', t('docs.copied', { n: d.documentNumber })));
      } catch (e) {
        fill(out, message('error', app.errorText(e)));
      } finally {
        copy.disabled = false;
      }
    });
    const last = v.sfs.lastAttempt;
    fill(
      detail,
      h(
        'section.card.detail',
        { dataset: { id: String(d.internalDocumentId) } },
        h('h2', { id: 'doc-number' }, `${d.type} ${d.documentNumber}`),
        h(
          'dl.facts',
          {},
          h('dt', {}, t('docs.date')),
          h('dd', {}, d.createDate),
          h('dt', {}, t('docs.amount')),
          h('dd', {}, eur(d.amount)),
          h('dt', {}, 'OKP'),
          h('dd.code', {}, d.okp),
          d.uuid ? [h('dt', {}, 'UID'), h('dd.code', {}, d.uuid)] : null,
          d.externalId ? [h('dt', {}, 'ID'), h('dd', {}, d.externalId)] : null,
          h('dt', {}, t('docs.state')),
          h('dd', { id: 'doc-sfs-state' }, t(`send.${v.sfs.state}`)),
          h('dt', {}, t('docs.attempts')),
          h('dd', { id: 'doc-attempts' }, String(v.sfs.sendingCount)),
          last
            ? [
                h('dt', {}, t('docs.lastAttempt')),
                h(
                  'dd',
                  { id: 'doc-last-attempt' },
                  `${last.requestDate}: ${last.outcome}${last.errorCode ? ` (${last.errorCode}) ${last.errorText ?? ''}` : ''}`,
                ),
              ]
            : null,
          h('dt', {}, t('docs.print')),
          h('dd', {}, t(`print.${v.print.state}`)),
        ),
        h('div.row', {}, copy),
        out,
        h(
          'figure.receipt',
          {},
          h('img', {
            id: 'doc-receipt',
            alt: `${t('docs.receipt')} ${d.documentNumber}`,
            src: `data:image/png;base64,${v.receipt.imageData}`,
          }),
          h(
            'details',
            {},
            h('summary', {}, t('docs.asText')),
            h('pre', { id: 'doc-receipt-text' }, v.receipt.text),
          ),
        ),
      ),
    );
    detail.scrollIntoView({ block: 'nearest' });
  }

  const filterForm = h(
    'form.filters',
    { id: 'doc-filter' },
    field(t('docs.from'), from),
    field(t('docs.to'), to),
    field(t('docs.type'), type),
    h('button', { type: 'submit' }, t('docs.filter')),
  );
  filterForm.addEventListener('submit', (event) => {
    event.preventDefault();
    state.filter = { from: from.value, to: to.value || from.value, type: type.value };
    if (!from.value && to.value) state.filter.from = to.value;
    state.cursors = [undefined];
    load();
  });
  const searchForm = h(
    'form.search',
    { id: 'doc-search-form' },
    search,
    h('button', { type: 'submit' }, t('docs.searchBtn')),
  );
  searchForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (search.value.trim() === '') return;
    try {
      const found = await post('/api/document/get', lookupFor(search.value));
      await open(found.document.internalDocumentId);
    } catch (e) {
      // A document the SFS did not accept answers its SFS error, naming it (ADR 0119): open it,
      // where its state says so.
      if (e.body?.ekasaError && typeof e.body.internalDocumentId === 'number') {
        await open(e.body.internalDocumentId);
        return;
      }
      fill(detail, message('error', e.resultCode === 506 ? t('docs.notFound') : app.errorText(e)));
    }
  });

  fill(root, h('h1', {}, t('docs.title')), searchForm, filterForm, list, detail);
  await load();
  // The newest page follows new documents by itself.
  app.repeat(() => {
    if (state.cursors.length === 1) return load();
    return undefined;
  });
  return {};
}
