// Location of a PORTABLE register: the current one and a form for GPS, an address or another
// description (GET /api/location/get, POST /api/location/update — capability 10's endpoints).
import { apiPaths, get, post } from './api.js';
import { field, fill, h, message } from './dom.js';
import { t } from './i18n.js';

function describe(location) {
  if (location.gps) return `GPS ${location.gps.y}, ${location.gps.x}`;
  if (location.physicalAddress) {
    const a = location.physicalAddress;
    return [a.street, a.buildingNumber, a.postalCode, a.municipality].filter(Boolean).join(' ');
  }
  return location.other ?? '';
}

export async function locationView(root, app) {
  let merchant;
  try {
    merchant = (await post('/api/merchant/get', {})).merchant;
  } catch (e) {
    fill(root, h('h1', {}, t('loc.title')), message('error', app.errorText(e)));
    return {};
  }
  if (merchant.organizationUnit.cashRegisterType !== 'PORTABLE') {
    fill(root, h('h1', {}, t('loc.title')), message('info', t('loc.standard')));
    return {};
  }
  const paths = await apiPaths();
  if (!paths.has('/api/location/update')) {
    fill(
      root,
      h('h1', {}, t('loc.title')),
      message('info', t('missing.endpoint', { what: 'POST /api/location/update' })),
    );
    return {};
  }
  const current = h('div', { id: 'loc-current' });
  const out = h('div', { id: 'loc-result' });
  async function loadCurrent() {
    try {
      const answer = await get('/api/location/get');
      fill(current, h('p', {}, `${describe(answer.location)} · ${answer.location.createDate}`));
    } catch (e) {
      fill(current, h('p.muted', {}, e.resultCode === 506 ? t('loc.none') : app.errorText(e)));
    }
  }
  const kind = h(
    'select',
    { id: 'loc-kind' },
    ['gps', 'physicalAddress', 'other'].map((k) =>
      h('option', { value: k }, t(k === 'gps' ? 'loc.gps' : k === 'other' ? 'loc.other' : 'loc.address')),
    ),
  );
  const inputs = {
    y: h('input', { type: 'number', step: 'any', id: 'loc-lat' }),
    x: h('input', { type: 'number', step: 'any', id: 'loc-lon' }),
    street: h('input', { type: 'text', id: 'loc-street' }),
    buildingNumber: h('input', { type: 'text', id: 'loc-building' }),
    municipality: h('input', { type: 'text', id: 'loc-municipality' }),
    postalCode: h('input', { type: 'text', id: 'loc-postal', inputmode: 'numeric' }),
    other: h('input', { type: 'text', id: 'loc-other' }),
  };
  const groups = {
    gps: h('div', {}, field(t('loc.lat'), inputs.y), field(t('loc.lon'), inputs.x)),
    physicalAddress: h(
      'div',
      {},
      field(t('loc.street'), inputs.street),
      field(t('loc.building'), inputs.buildingNumber),
      field(t('loc.municipality'), inputs.municipality),
      field(t('loc.postal'), inputs.postalCode),
    ),
    other: h('div', {}, field(t('loc.otherText'), inputs.other)),
  };
  const showKind = () => {
    for (const [k, el] of Object.entries(groups)) el.hidden = k !== kind.value;
  };
  kind.addEventListener('change', showKind);
  showKind();
  const form = h(
    'form.card',
    { id: 'loc-form' },
    field(t('loc.kind'), kind),
    Object.values(groups),
    h('button', { type: 'submit' }, t('loc.submit')),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body =
      kind.value === 'gps'
        ? { gps: { x: Number(inputs.x.value), y: Number(inputs.y.value) } }
        : kind.value === 'other'
          ? { other: inputs.other.value }
          : {
              physicalAddress: {
                street: inputs.street.value,
                buildingNumber: inputs.buildingNumber.value || undefined,
                municipality: inputs.municipality.value,
                postalCode: inputs.postalCode.value || undefined,
              },
            };
    try {
      await post('/api/location/update', body);
      fill(out, message('ok', t('loc.saved')));
      await loadCurrent();
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    }
  });
  fill(root, h('h1', {}, t('loc.title')), h('h2', {}, t('loc.current')), current, form, out);
  await loadCurrent();
  return {};
}
