// Logo: upload a picture, see it as the printer prints it (PRINT) and as the electronic receipt
// shows it (ELECTRONIC) side by side, then store or remove it (POST /api/image/preview|store).
import { post } from './api.js';
import { field, fill, h, message, readFile } from './dom.js';
import { t } from './i18n.js';

export async function logoView(root, app) {
  let imageData;
  const input = h('input', { type: 'file', id: 'logo-file', accept: 'image/*' });
  const onReceipt = h('input', { type: 'checkbox', id: 'logo-on-receipt' });
  const previews = h('div.previews', { id: 'logo-previews' });
  const out = h('div', { id: 'logo-result' });
  const store = h('button', { type: 'button', id: 'logo-store', disabled: true }, t('logo.store'));
  const remove = h('button.secondary', { type: 'button', id: 'logo-remove' }, t('logo.remove'));

  const figure = (id, title, img) =>
    h(
      'figure.preview',
      { id },
      h('figcaption', {}, `${title} · ${img.width}×${img.height}`),
      h('img', {
        src: `data:image/png;base64,${img.imageData}`,
        alt: title,
        width: img.width,
        height: img.height,
      }),
    );

  async function preview() {
    if (!imageData) return;
    fill(previews, message('info', t('loading')));
    try {
      const p = await post('/api/image/preview', {
        imageData,
        format: 'BOTH',
        fitOnReceipt: onReceipt.checked,
      });
      fill(
        previews,
        figure('logo-preview-print', t('logo.print'), p.print),
        figure('logo-preview-electronic', t('logo.electronic'), p.electronic),
      );
      store.disabled = false;
    } catch (e) {
      fill(previews, message('error', app.errorText(e)));
      store.disabled = true;
    }
  }
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    imageData = await readFile(file, 'dataUrl');
    await preview();
  });
  onReceipt.addEventListener('change', preview);
  store.addEventListener('click', async () => {
    store.disabled = true;
    try {
      await post('/api/image/store', { imageData });
      fill(out, message('ok', t('logo.stored')));
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    } finally {
      store.disabled = false;
    }
  });
  remove.addEventListener('click', async () => {
    try {
      await post('/api/image/store', { imageData: null });
      fill(out, message('ok', t('logo.removed')));
    } catch (e) {
      fill(out, message('error', app.errorText(e)));
    }
  });
  fill(
    root,
    h('h1', {}, t('logo.title')),
    h(
      'section.card',
      {},
      h('p', {}, t('logo.text')),
      field(t('logo.file'), input),
      h('div.field.check', {}, onReceipt, h('label', { for: onReceipt.id }, t('logo.onReceipt'))),
    ),
    previews,
    h('div.row', {}, store, remove),
    out,
  );
  return {};
}
