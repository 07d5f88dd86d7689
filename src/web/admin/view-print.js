// Free text at the printer's width, the cash drawer, and the last document's print when it
// failed (POST /api/print, /api/drawer/open, /api/document/print).
import { get, post } from './api.js';
import { fill, h, message } from './dom.js';
import { t } from './i18n.js';

export async function printView(root, app) {
  const printer = await get('/api/printer').catch(() => undefined);
  const width = printer?.charsPerLine ?? 48;
  const text = h('textarea.mono', { id: 'print-text', rows: 8, cols: width, spellcheck: 'false' });
  const ruler = h('div.ruler.mono', { 'aria-hidden': 'true' }, '·'.repeat(width));
  const out = h('div', { id: 'print-result' });
  const printBtn = h('button', { type: 'button', id: 'print-submit' }, t('print.submit'));
  printBtn.addEventListener('click', async () => {
    if (text.value.trim() === '') return;
    printBtn.disabled = true;
    try {
      await post('/api/print', { printData: text.value });
      fill(out, message('ok', t('print.done')));
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    } finally {
      printBtn.disabled = false;
    }
  });
  const drawerOut = h('div', { id: 'drawer-result' });
  const drawer = h('button', { type: 'button', id: 'drawer-open' }, t('drawer.open'));
  drawer.addEventListener('click', async () => {
    try {
      await post('/api/drawer/open', {});
      fill(drawerOut, message('ok', t('drawer.done')));
    } catch (e) {
      fill(drawerOut, message('error', app.errorText(e)));
    }
  });
  const pendingOut = h('div', { id: 'pending-result' });
  const pending = h('button.secondary', { type: 'button', id: 'print-pending' }, t('print.pendingBtn'));
  pending.addEventListener('click', async () => {
    try {
      await post('/api/document/print', {});
      fill(pendingOut, message('ok', t('print.done')));
    } catch (e) {
      fill(pendingOut, message('error', app.errorText(e)));
    }
  });
  fill(
    root,
    h('h1', {}, t('print.title')),
    h(
      'section.card',
      {},
      h('p', {}, t('print.text', { n: width })),
      h('div.wide', {}, ruler, text),
      printBtn,
      out,
    ),
    h('section.card', {}, h('h2', {}, t('drawer.title')), drawer, drawerOut),
    h(
      'section.card',
      {},
      h('h2', {}, t('print.pendingTitle')),
      h('p.muted', {}, t('print.pendingText')),
      pending,
      pendingOut,
    ),
  );
  return {};
}
