import type { GetQrPayment } from '../../core/services/qr-payments/get-qr-payment.js';
import type { QrPaymentView } from '../../core/services/qr-payments/qr-payment-view.js';
import type { RoutePlugin } from '../app.js';

const STATE_TEXT: Record<QrPaymentView['state'], string> = {
  PENDING: 'Naskenujte QR kód v bankovej aplikácii a zaplaťte okamžitou platbou.',
  PAID: 'Zaplatené. Ďakujeme!',
  USED: 'Zaplatené. Ďakujeme!',
  MISMATCH: 'Platba nesedí so sumou. Obráťte sa na obsluhu.',
  CANCELLED: 'Platba bola zrušená.',
  EXPIRED: 'Čas na platbu vypršal.',
  LATE_PAID: 'Platba prišla po zrušení. Obráťte sa na obsluhu.',
};

const html = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `GET /pay/<id>`: a page for a customer display or tablet (ADR 0910): the QR, the amount, the
 * creditor and the state, refreshed every 2 s while PENDING. Outside /api/ it needs no token, so a
 * display on the shop's network can show it; it shows only what the QR itself carries, under an
 * unguessable id. No script, no external resource.
 */
export function payPageRoutes(deps: {
  get: GetQrPayment;
  qrPng(text: string, scale: number): Promise<Uint8Array>;
}): RoutePlugin {
  return (app) => {
    app.get('/pay/:id', { schema: { hide: true } }, async (request, reply) => {
      const id = (request.params as { id: string }).id;
      // An unknown id is an ErrorResponse 803 (HTTP 404) like every other refusal.
      const view: QrPaymentView = (await deps.get.execute(id)).qrPayment;
      const png = Buffer.from(await deps.qrPng(view.payme, 8)).toString('base64');
      const creditor = new URL(view.payme).searchParams.get('CN') ?? '';
      const pending = view.state === 'PENDING';
      const body = `
<h1>${html(view.amount.toFixed(2))} EUR</h1>
<p class="cn">${html(creditor)}</p>
${pending ? `<img alt="QR kód platby" src="data:image/png;base64,${png}">` : ''}
<p class="state ${view.state}">${html(STATE_TEXT[view.state])}</p>
<p class="id">${html(view.qrPaymentId)}</p>`;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
        )
        .send(page('QR platba', body, pending));
    });
  };
}

function page(title: string, body: string, refresh: boolean): string {
  return `<!doctype html><html lang="sk"><head><meta charset="utf-8"><title>${title}</title>
${refresh ? '<meta http-equiv="refresh" content="2">' : ''}
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;text-align:center;margin:2em}h1{font-size:3em;margin:.2em}img{width:min(80vw,420px);image-rendering:pixelated}.id{color:#888;font-size:.8em}.PAID,.USED{color:#070;font-size:1.5em}.MISMATCH,.LATE_PAID{color:#a00}</style>
</head><body>${body}</body></html>`;
}
