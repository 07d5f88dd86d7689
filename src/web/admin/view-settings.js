// Settings as a form: every key of GET /api/settings/get, grouped; keys fixed by a flag shown
// read-only with why; a change is sent with PUT /api/settings/store and applies at once.
import { ApiError, get, put } from './api.js';
import { fill, h, message } from './dom.js';
import { has, t } from './i18n.js';

const WIDTHS = { 384: [32, 42], 512: [42, 56], 576: [48, 64] };

/** How each known key is edited; keys not listed get a control from their value's type. */
const FIELDS = {
  printerTarget: { group: 'printer', kind: 'text' },
  printerPaperWidthDots: { group: 'printer', kind: 'select', options: [384, 512, 576], number: true },
  printerCharsPerLine: { group: 'printer', kind: 'select', options: [32, 42, 48, 56, 64], number: true },
  printerCodepage: { group: 'printer', kind: 'select', options: ['cp852', 'cp1250', 'raster'] },
  printerCodepageNumber: { group: 'printer', kind: 'number', nullable: true },
  printerQr: { group: 'printer', kind: 'select', options: ['raster', 'native'] },
  printerModel: { group: 'printer', kind: 'text', nullable: true },
  printerConfirm: { group: 'printer', kind: 'select', options: ['received', 'printed'] },
  printerBufferBytes: { group: 'printer', kind: 'number' },
  printWindowSize: { group: 'printer', kind: 'number' },
  printDelay: { group: 'printer', kind: 'number' },
  logoEnabled: { group: 'receipt', kind: 'checkbox' },
  receiptHeader: { group: 'receipt', kind: 'textarea', nullable: true },
  receiptFooter: { group: 'receipt', kind: 'textarea', nullable: true },
  sfsUrl: { group: 'sfs', kind: 'text', nullable: true },
  sfsTrust: { group: 'sfs', kind: 'lines' },
  sfsTimeoutMs: { group: 'sfs', kind: 'number' },
  resendIntervalMs: { group: 'offline', kind: 'number' },
  resendMaxIntervalMs: { group: 'offline', kind: 'number' },
  resendBatchLimit: { group: 'offline', kind: 'number' },
  resendDeadlineHours: { group: 'offline', kind: 'number' },
  forceSendCashDocuments: { group: 'documents', kind: 'checkbox' },
  cashPaymentNames: { group: 'documents', kind: 'lines' },
  nopEnvironment: { group: 'qr', kind: 'select', options: ['off', 'int', 'prod'] },
  nopIban: { group: 'qr', kind: 'text', nullable: true },
  nopCreditorName: { group: 'qr', kind: 'text', nullable: true },
  nopMessage: { group: 'qr', kind: 'text', nullable: true },
  nopPaymeType: { group: 'qr', kind: 'select', options: ['m', 'p'] },
  nopExpirySeconds: { group: 'qr', kind: 'number' },
  nopTenderName: { group: 'qr', kind: 'text' },
  adminLanguage: { group: 'admin', kind: 'select', options: ['sk', 'en'] },
  adminRefreshSeconds: { group: 'admin', kind: 'number' },
};
const GROUPS = ['printer', 'receipt', 'sfs', 'offline', 'documents', 'qr', 'admin', 'other'];

function specOf(key, value) {
  if (FIELDS[key]) return FIELDS[key];
  if (typeof value === 'boolean') return { group: 'other', kind: 'checkbox' };
  if (typeof value === 'number') return { group: 'other', kind: 'number' };
  if (Array.isArray(value)) return { group: 'other', kind: 'lines' };
  return { group: 'other', kind: 'text', nullable: value === null };
}

function control(key, spec, value) {
  const id = `set-${key}`;
  switch (spec.kind) {
    case 'checkbox':
      return h('input', { type: 'checkbox', id, checked: value === true });
    case 'number':
      return h('input', { type: 'number', id, value: value ?? '', step: 1 });
    case 'select':
      return h(
        'select',
        { id },
        spec.options.map((o) =>
          h(
            'option',
            { value: String(o), selected: String(o) === String(value) },
            has(`paper.${o}`) ? t(`paper.${o}`) : String(o),
          ),
        ),
      );
    case 'textarea':
      return h('textarea', { id, rows: 2 }, value ?? '');
    case 'lines':
      return h('textarea', { id, rows: Math.max(2, (value ?? []).length) }, (value ?? []).join('\n'));
    default:
      return h('input', { type: 'text', id, value: value ?? '', spellcheck: 'false' });
  }
}

function readControl(el, spec) {
  switch (spec.kind) {
    case 'checkbox':
      return el.checked;
    case 'number':
      return el.value === '' && spec.nullable ? null : Number(el.value);
    case 'select':
      return spec.number ? Number(el.value) : el.value;
    case 'lines':
      return el.value
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
    default:
      return el.value === '' && spec.nullable ? null : el.value;
  }
}

export async function settingsView(root, app) {
  let loaded;
  try {
    loaded = await get('/api/settings/get');
  } catch (e) {
    fill(root, h('h1', {}, t('set.title')), message('error', app.errorText(e)));
    return {};
  }
  const controls = new Map();
  const errors = new Map();
  const result = h('div', { id: 'set-result' });
  const groups = new Map(GROUPS.map((g) => [g, []]));
  for (const [key, value] of Object.entries(loaded.settings)) {
    const spec = specOf(key, value);
    const el = control(key, spec, value);
    const fixedBy = loaded.fixedBy?.[key];
    if (fixedBy) el.disabled = true;
    const error = h('small.error', { id: `set-${key}-error`, role: 'alert', hidden: true });
    controls.set(key, { el, spec });
    errors.set(key, error);
    const label = has(`set.${key}`) ? t(`set.${key}`) : key;
    const row =
      spec.kind === 'checkbox'
        ? h('div.field.check', { dataset: { key } }, el, h('label', { for: el.id }, label))
        : h('div.field', { dataset: { key } }, h('label', { for: el.id }, label), el);
    if (fixedBy) row.append(h('small.note.fixed', {}, t('set.fixed', { by: fixedBy })));
    row.append(error);
    groups.get(spec.group).push(row);
  }
  // The line widths a paper allows: the choice follows the paper.
  const dots = controls.get('printerPaperWidthDots')?.el;
  const chars = controls.get('printerCharsPerLine')?.el;
  const fitChars = () => {
    if (!dots || !chars) return;
    const allowed = WIDTHS[dots.value] ?? [];
    for (const option of chars.options) option.hidden = !allowed.includes(Number(option.value));
    if (!allowed.includes(Number(chars.value))) chars.value = String(allowed[0]);
  };
  dots?.addEventListener('change', fitChars);
  fitChars();

  const submit = h('button', { type: 'submit', id: 'set-save' }, t('save'));
  const form = h(
    'form',
    { id: 'set-form', autocomplete: 'off' },
    [...groups]
      .filter(([, rows]) => rows.length > 0)
      .map(([group, rows]) =>
        h(
          'fieldset.card',
          { dataset: { group } },
          h('legend', {}, has(`set.group.${group}`) ? t(`set.group.${group}`) : group),
          rows,
        ),
      ),
    h('div.row', {}, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const e of errors.values()) e.hidden = true;
    for (const { el } of controls.values()) el.removeAttribute('aria-invalid');
    const changes = {};
    for (const [key, { el, spec }] of controls) {
      if (el.disabled) continue;
      const value = readControl(el, spec);
      if (JSON.stringify(value) !== JSON.stringify(loaded.settings[key])) changes[key] = value;
    }
    if (Object.keys(changes).length === 0) {
      fill(result, message('info', t('set.nothing')));
      return;
    }
    submit.disabled = true;
    try {
      const answer = await put('/api/settings/store', { settings: changes });
      loaded = { ...loaded, settings: answer.settings };
      fill(result, message('ok', t('set.saved', { keys: answer.changed.join(', ') })));
    } catch (e) {
      const key =
        e instanceof ApiError && typeof e.field === 'string' ? e.field.replace(/^settings\./, '') : undefined;
      const target = key === undefined ? undefined : errors.get(key);
      if (target) {
        target.textContent = e.body.error;
        target.hidden = false;
        controls.get(key).el.setAttribute('aria-invalid', 'true');
        controls.get(key).el.focus();
      }
      fill(result, message('error', app.errorText(e)));
    } finally {
      submit.disabled = false;
    }
  });
  fill(root, h('h1', {}, t('set.title')), h('p.muted', {}, t('set.text')), form, result);
  return {};
}
