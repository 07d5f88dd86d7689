// Activation and renewal: the two XML files from the tax authority's portal and the password,
// sent to POST /api/merchant/store — the same rules and result codes as for a POS.
import { ApiError, post } from './api.js';
import { field, fill, h, message, readFile } from './dom.js';
import { t } from './i18n.js';

/** Which file a text is: authentication data (AuthData) or identification data (IdentityData). */
function kindOf(text) {
  if (/<([\w-]+:)?AuthData[\s>]/.test(text)) return 'auth';
  if (/<([\w-]+:)?IdentityData[\s>]/.test(text)) return 'ident';
  return undefined;
}

/** The plain sentence for a refusal of POST /api/merchant/store. */
export function activationError(e, fallback) {
  if (!(e instanceof ApiError)) return fallback(e);
  const text = e.body.error ?? '';
  switch (e.resultCode) {
    case 400:
      if (e.field === 'IdentityData/Dic') return t('act.e400dic');
      if (e.field === 'IdentityData/OrganizationUnit/CashRegisterCode') return t('act.e400code');
      return t('act.e400', { text });
    case 401:
      // The server's text says whose CHDÚ this is and, for a demo one, what to do (H2).
      return text ? `${t('act.e401')} ${t('act.detail', { text })}` : t('act.e401');
    case 402:
      return t('act.e402', { text });
    case 403:
      return t('act.e403');
    case 404:
      return t('act.e404', { text });
    case 405:
      return t('act.e405');
    default:
      return fallback(e);
  }
}

function merchantBlock(m) {
  return h(
    'dl.facts',
    { id: 'merchant-facts' },
    h('dt', {}, t('act.name')),
    h('dd', { id: 'merchant-name' }, m.corporateFullName),
    h('dt', {}, t('act.dic')),
    h('dd', { id: 'merchant-dic' }, m.dic),
    h('dt', {}, t('act.code')),
    h('dd', { id: 'merchant-code' }, m.organizationUnit.cashRegisterCode),
    h('dt', {}, t('act.type')),
    h('dd', {}, m.organizationUnit.cashRegisterType),
    h('dt', {}, t('act.valid')),
    h('dd', {}, m.certificate.expirationDate),
  );
}

export async function activationView(root, app) {
  const files = { auth: undefined, ident: undefined };
  const authInput = h('input', { type: 'file', accept: '.xml,text/xml,application/xml', id: 'act-auth' });
  const identInput = h('input', { type: 'file', accept: '.xml,text/xml,application/xml', id: 'act-ident' });
  const password = h('input', { type: 'password', id: 'act-password', autocomplete: 'off' });
  const result = h('div', { id: 'act-result' });
  const names = h('p.muted', { id: 'act-names' });

  const showNames = () => {
    names.textContent = [files.auth?.name, files.ident?.name].filter(Boolean).join(' · ');
  };
  const take = async (file, expected) => {
    const text = await readFile(file);
    const kind = kindOf(text) ?? expected;
    if (kind) files[kind] = { name: file.name, text };
    showNames();
  };
  authInput.addEventListener('change', () => authInput.files[0] && take(authInput.files[0], 'auth'));
  identInput.addEventListener('change', () => identInput.files[0] && take(identInput.files[0], 'ident'));

  const drop = h('div.drop', { id: 'act-drop', tabindex: 0 }, t('act.drop'));
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    for (const file of event.dataTransfer?.files ?? []) await take(file, undefined);
  });

  const submit = h('button', { type: 'submit', id: 'act-submit' }, t('act.submit'));
  const form = h(
    'form.card',
    { id: 'act-form', autocomplete: 'off' },
    h('p', {}, t('act.text')),
    drop,
    field(t('act.auth'), authInput),
    field(t('act.ident'), identInput),
    names,
    field(t('act.password'), password),
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!files.auth || !files.ident || password.value === '') {
      fill(result, message('error', t('act.missing')));
      return;
    }
    submit.disabled = true;
    fill(result, message('info', t('loading')));
    try {
      const answer = await post('/api/merchant/store', {
        identificationData: files.ident.text,
        authenticationData: files.auth.text,
        keyStorePassword: password.value,
      });
      password.value = '';
      fill(
        result,
        h(
          'div.msg.ok',
          { id: 'act-success', role: 'status' },
          h('strong', {}, t('act.success')),
          merchantBlock(answer.merchant),
        ),
      );
      app.refreshTopState();
    } catch (e) {
      fill(
        result,
        h(
          'p.msg.error',
          { id: 'act-error', role: 'alert', dataset: { code: String(e.resultCode ?? '') } },
          activationError(e, app.errorText),
        ),
      );
    } finally {
      submit.disabled = false;
    }
  });

  let currentBlock = null;
  try {
    const m = await post('/api/merchant/get', {});
    currentBlock = h('section.card', {}, h('h2', {}, t('act.current')), merchantBlock(m.merchant));
  } catch {
    currentBlock = null;
  }
  fill(root, h('h1', {}, t('act.title')), form, result, currentBlock);
  return {};
}
