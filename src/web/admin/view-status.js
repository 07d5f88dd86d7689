// Status at a glance: READY or what blocks it and what to do, certificate days left, offline
// backlog, CHDÚ capacity, printer paper. Refreshes by itself.
import { get } from './api.js';
import { fill, h, message } from './dom.js';
import { countKey, decimal, has, stateLabel, t } from './i18n.js';

const pct = (used, total) => (total > 0 ? Math.min(100, Math.round((used / total) * 1000) / 10) : 0);

function bytes(n) {
  if (n >= 1024 ** 3) return `${decimal(n / 1024 ** 3, 1)} GB`;
  if (n >= 1024 ** 2) return `${decimal(n / 1024 ** 2, 1)} MB`;
  return `${Math.round(n / 1024)} kB`;
}

function duration(ms) {
  const hours = Math.floor(Math.abs(ms) / 3_600_000);
  if (hours >= 48) return `${Math.floor(hours / 24)} d`;
  if (hours >= 1) return `${hours} h`;
  return `${Math.max(1, Math.round(Math.abs(ms) / 60_000))} min`;
}

export async function statusView(root, app) {
  async function draw() {
    let status;
    try {
      status = await get('/api/status/get');
    } catch (e) {
      fill(root, message('error', app.errorText(e)));
      return;
    }
    const [merchant, chdu, printer] = await Promise.all([
      get('/api/merchant/status').catch(() => undefined),
      get('/api/chduinfo').catch(() => undefined),
      get('/api/printer').catch(() => undefined),
    ]);
    const ready = status.state === 'READY';
    const todo = has(`todo.${status.state}`) ? t(`todo.${status.state}`) : undefined;
    const banner = h(
      `section.banner.${ready ? 'ok' : 'bad'}`,
      { id: 'status-banner' },
      h(
        'h1',
        { id: 'status-state', dataset: { state: status.state } },
        ready ? t('status.ready') : `${t('status.blocked')}: ${stateLabel(status.state)}`,
      ),
      h('p', {}, ready ? t('status.readyText') : status.reason),
      todo && !ready ? h('p.todo', {}, todo) : null,
    );

    const cards = [];
    // Certificate
    if (merchant) {
      const expired = merchant.state === 'EXPIRED';
      cards.push(
        h(
          `div.card.${expired ? 'bad' : merchant.showWarning ? 'warn' : 'ok'}`,
          { id: 'status-certificate' },
          h('h2', {}, t('status.certificate')),
          h(
            'p.big',
            {},
            expired
              ? t('status.expired', { date: merchant.expirationDate })
              : t(countKey('status.daysLeft', merchant.daysLeft), {
                  n: merchant.daysLeft,
                  date: merchant.expirationDate,
                }),
          ),
          h('p.muted', {}, `${t('act.dic')} ${merchant.dic} · ${t('act.code')} ${merchant.cashRegisterCode}`),
          merchant.problem ? h('p', {}, merchant.problem) : null,
        ),
      );
    } else {
      cards.push(
        h(
          'div.card.bad',
          { id: 'status-certificate' },
          h('h2', {}, t('status.certificate')),
          h('p', {}, t('status.noMerchant')),
          h('a.button', { href: '#activation' }, t('nav.activation')),
        ),
      );
    }
    // Offline backlog: the oldest item's age and the time left to its deadline (capability 10's status).
    const backlog = status.components.find((c) => c.component === 'OFFLINE_BACKLOG');
    const d = backlog?.details ?? {};
    const oldest = d.oldest;
    const unsent = (d.unsentDocuments ?? 0) + (d.unsentLocations ?? 0);
    const stuckCount = (d.stuckDocuments ?? 0) + (d.stuckLocations ?? 0);
    // The oldest queued item may be one the SFS rejected: it waits for repair, not to be sent.
    const oldestStuck =
      oldest !== undefined &&
      (unsent === 0 ||
        (d.stuck ?? []).some((s) =>
          oldest.kind === 'document'
            ? s.kind === 'document' && s.internalDocumentId === oldest.internalDocumentId
            : s.kind === 'location' && s.internalId === oldest.internalId,
        ));
    cards.push(
      h(
        `div.card.${backlog?.state === 'ERROR' ? 'bad' : backlog?.state === 'WARNING' ? 'warn' : 'ok'}`,
        { id: 'status-backlog' },
        h('h2', {}, t('status.backlog')),
        unsent > 0
          ? h(
              'p',
              { id: 'status-waiting' },
              t('status.backlogCount', { docs: d.unsentDocuments ?? 0, locs: d.unsentLocations ?? 0 }),
            )
          : h(
              'p',
              { id: 'status-waiting' },
              stuckCount > 0 ? t('status.backlogOnlyStuck') : t('status.backlogNone'),
            ),
        oldest
          ? h(
              'p',
              { id: 'status-oldest', dataset: { stuck: String(oldestStuck) } },
              oldest.timeLeftSeconds < 0
                ? t(oldestStuck ? 'status.backlogOverdueStuck' : 'status.backlogOverdue', {
                    date: oldest.createDate,
                    deadline: oldest.sendBy,
                  })
                : t(oldestStuck ? 'status.backlogOldestStuck' : 'status.backlogOldest', {
                    date: oldest.createDate,
                    age: duration(oldest.ageSeconds * 1000),
                    deadline: oldest.sendBy,
                    left: duration(oldest.timeLeftSeconds * 1000),
                  }),
            )
          : null,
        d.registerRefusal
          ? h(
              'p.todo',
              { id: 'status-refusal' },
              t('status.refusal', { code: d.registerRefusal.errorCode, todo: d.registerRefusal.todo }),
            )
          : null,
        (d.stuckDocuments ?? 0) > 0 ? h('p.todo', {}, t('status.stuck', { n: d.stuckDocuments })) : null,
        (d.stuckLocations ?? 0) > 0
          ? h('p.todo', {}, t('status.stuckLocations', { n: d.stuckLocations }))
          : null,
        (d.setAsideDocuments ?? 0) + (d.setAsideLocations ?? 0) > 0
          ? h(
              'p',
              { id: 'status-aside' },
              t('status.aside', { docs: d.setAsideDocuments ?? 0, locs: d.setAsideLocations ?? 0 }),
            )
          : null,
        [
          'stuckDocuments',
          'stuckLocations',
          'unsentDocuments',
          'unsentLocations',
          'setAsideDocuments',
          'setAsideLocations',
        ].some((k) => (d[k] ?? 0) > 0)
          ? h('a', { href: '#offline' }, t('nav.offline'))
          : null,
      ),
    );
    // CHDÚ capacity
    if (chdu) {
      const p = pct(chdu.usedBytes, chdu.capacityBytes);
      cards.push(
        h(
          `div.card.${p > 90 ? 'bad' : p > 75 ? 'warn' : 'ok'}`,
          { id: 'status-chdu' },
          h('h2', {}, t('status.chdu')),
          h(
            'div.bar',
            { role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': p },
            h('span', { style: undefined, dataset: { pct: String(p) } }),
          ),
          h(
            'p.muted',
            {},
            t('status.chduUsed', {
              used: bytes(chdu.usedBytes),
              total: bytes(chdu.capacityBytes),
              pct: decimal(p),
            }),
          ),
        ),
      );
    }
    // Printer
    if (printer) {
      const paper = printer.status.paper;
      cards.push(
        h(
          `div.card.${!printer.status.ready ? 'bad' : paper === 'near-end' ? 'warn' : 'ok'}`,
          { id: 'status-printer' },
          h('h2', {}, t('status.printer')),
          h('p', {}, `${printer.model} · ${printer.target} · ${printer.charsPerLine}`),
          h('p.big', { id: 'status-paper' }, `${t('status.paper')}: ${t(`paper.${paper}`)}`),
          // ADR 0514: status never waits for a job; while one runs it is the last status read.
          printer.status.busy ? h('p.muted', { id: 'status-busy' }, t('status.busy')) : null,
          printer.status.fault ? h('p', {}, `${printer.status.faultCode} ${printer.status.fault}`) : null,
        ),
      );
    }

    const components = h(
      'section',
      {},
      h('h2', {}, t('status.components')),
      h(
        'ul.components',
        { id: 'status-components' },
        status.components.map((c) =>
          h(
            `li.${c.state}`,
            { dataset: { component: c.component } },
            h('strong', {}, t(`component.${c.component}`)),
            ' ',
            h(`span.pill.${c.state}`, {}, t(`state.${c.state}`)),
            h('div', {}, c.reason),
          ),
        ),
      ),
    );
    fill(
      root,
      banner,
      h('div.grid', {}, cards),
      components,
      h('p.muted', {}, t('status.auto', { n: app.refreshSeconds })),
    );
    // The bar width is set through the CSSOM (CSP: no inline styles).
    for (const span of root.querySelectorAll('.bar > span')) span.style.width = `${span.dataset.pct}%`;
    app.refreshTopState();
  }
  await draw();
  app.repeat(draw);
  return {};
}
