// The admin page (capability 12): a shell with navigation, the token login and the language switch;
// each view lives in its own module and talks to kasa only through the public HTTP API.
import { ApiError, get, setToken, token, whenUnauthorized } from './api.js';
import { fill, h } from './dom.js';
import { language, setLanguage, stateLabel, t } from './i18n.js';
import { activationView } from './view-activation.js';
import { documentsView } from './view-documents.js';
import { locationView } from './view-location.js';
import { logoView } from './view-logo.js';
import { offlineView } from './view-offline.js';
import { printView } from './view-print.js';
import { settingsView } from './view-settings.js';
import { statusView } from './view-status.js';
import { summaryView } from './view-summary.js';

const VIEWS = {
  status: statusView,
  activation: activationView,
  documents: documentsView,
  offline: offlineView,
  settings: settingsView,
  logo: logoView,
  location: locationView,
  print: printView,
  summary: summaryView,
};

const LANG_KEY = 'kasa-lang';
const $ = (id) => document.getElementById(id);

/** What every view gets: where to draw, how often to refresh, and the shared helpers. */
const app = {
  refreshSeconds: 5,
  timers: [],
  /** Runs `fn` every refresh interval while the view is shown. */
  repeat(fn) {
    this.timers.push(setInterval(fn, this.refreshSeconds * 1000));
  },
  go(name) {
    location.hash = `#${name}`;
  },
  /** The sentence for a failed call. */
  errorText(e) {
    if (!(e instanceof ApiError)) return String(e?.message ?? e);
    if (e.status === 0) return t('err.network');
    if (e.resultCode === 300) return t('err.busy');
    return t('err.code', { code: e.resultCode, text: e.body.error ?? e.message });
  },
  refreshTopState,
};

let current;
let topTimer;

function viewName() {
  const name = location.hash.replace(/^#/, '');
  return name in VIEWS ? name : 'status';
}

function drawNav() {
  const nav = $('nav');
  const active = viewName();
  fill(
    nav,
    ...Object.keys(VIEWS).map((name) =>
      h(
        'a',
        { href: `#${name}`, 'aria-current': name === active ? 'page' : undefined, id: `nav-${name}` },
        t(`nav.${name}`),
      ),
    ),
  );
}

function drawChrome() {
  document.title = t('title');
  $('lang-switch').textContent = language() === 'sk' ? 'EN' : 'SK';
  $('logout').textContent = t('logout');
  $('logout').hidden = !token();
  $('login-title').textContent = t('login.title');
  $('login-text').textContent = t('login.text');
  $('login-label').textContent = t('login.label');
  $('login-submit').textContent = t('login.submit');
  drawNav();
}

async function show() {
  for (const timer of app.timers) clearInterval(timer);
  app.timers = [];
  current?.leave?.();
  drawChrome();
  const view = $('view');
  fill(view, h('p.muted', {}, t('loading')));
  const name = viewName();
  view.dataset.view = name;
  delete view.dataset.ready;
  current = await VIEWS[name](view, app);
  // Drawn: tests and screen readers can rely on the view being there.
  if (view.dataset.view === name) view.dataset.ready = name;
}

function showLogin(wrong = false) {
  for (const timer of app.timers) clearInterval(timer);
  app.timers = [];
  $('login').hidden = false;
  $('view').hidden = true;
  $('nav').hidden = true;
  $('login-error').hidden = !wrong;
  $('login-error').textContent = t('login.wrong');
  $('login-token').focus();
}

function hideLogin() {
  $('login').hidden = true;
  $('view').hidden = false;
  $('nav').hidden = false;
}

async function refreshTopState() {
  try {
    const s = await get('/api/status/get');
    const pill = $('top-state');
    pill.textContent = stateLabel(s.state);
    pill.dataset.state = s.state;
    pill.className = `pill ${s.state === 'READY' ? 'ok' : 'bad'}`;
    return s;
  } catch {
    return undefined;
  }
}

async function start() {
  const stored = localStorage.getItem(LANG_KEY);
  setLanguage(stored ?? 'sk');
  whenUnauthorized(() => {
    setToken(undefined);
    showLogin(false);
  });
  $('lang-switch').addEventListener('click', () => {
    setLanguage(language() === 'sk' ? 'en' : 'sk');
    localStorage.setItem(LANG_KEY, language());
    show();
  });
  $('logout').addEventListener('click', () => {
    setToken(undefined);
    location.reload();
  });
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const typed = $('login-token').value.trim();
    try {
      await get('/api/status/get', { tokenOverride: typed, quiet401: true });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        showLogin(true);
        return;
      }
    }
    setToken(typed);
    $('login-token').value = '';
    hideLogin();
    await boot();
  });
  window.addEventListener('hashchange', () => {
    if ($('login').hidden) show();
  });
  drawChrome();
  await boot();
}

/** After a successful sign-in (or without a token): version, language and refresh from kasa. */
async function boot() {
  try {
    const v = await get('/api/version', { quiet401: true });
    $('version').textContent = `${v.product} ${v.version} · API ${v.apiVersion}`;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      showLogin(false);
      return;
    }
  }
  hideLogin();
  try {
    const s = await get('/api/settings/get');
    app.refreshSeconds = s.settings.adminRefreshSeconds;
    if (localStorage.getItem(LANG_KEY) === null) setLanguage(s.settings.adminLanguage);
  } catch {
    // Not ready (no merchant yet): defaults.
  }
  await refreshTopState();
  clearInterval(topTimer);
  topTimer = setInterval(refreshTopState, app.refreshSeconds * 1000);
  await show();
}

start();
