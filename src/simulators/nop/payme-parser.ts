/**
 * The bank app's strict reading of a Payme link (SBA Payment Link Standard v2, `/2/m/PME`), as the
 * simulator and the tests' fake bank app read kasa's QR: every required parameter once, nothing
 * unknown, `DT` absent, `AM` with exactly two decimals, `CC=EUR`, `PI` a `QR-` id, `CN` ≤ 70 in the
 * recommended characters, `IBAN` passing mod-97. Written from the standard, not from kasa's
 * builder, so a builder mistake fails here.
 */
export interface PaymeOrder {
  type: 'm' | 'p';
  iban: string;
  amount: string;
  currency: 'EUR';
  paymentId: string;
  creditorName: string;
  message?: string;
}

const ALLOWED = /^[a-zA-Z0-9/\-?:().,'+ ]*$/;
const KNOWN = new Set(['IBAN', 'AM', 'CC', 'PI', 'CN', 'MSG']);

export function parsePaymeLink(link: string): PaymeOrder {
  const m = /^https:\/\/payme\.sk\/2\/([mp])\/PME\?([^#]*)$/.exec(link);
  if (!m) throw new Error(`not a Payme v2 link: ${link.slice(0, 60)}`);
  const params = new Map<string, string>();
  for (const pair of m[2]!.split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`bad parameter ${pair}`);
    const key = pair.slice(0, eq);
    if (!KNOWN.has(key))
      throw new Error(`unknown parameter ${key}${key === 'DT' ? ' (DT is not used on /m/)' : ''}`);
    if (params.has(key)) throw new Error(`parameter ${key} twice`);
    params.set(key, decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' ')));
  }
  const need = (key: string): string => {
    const v = params.get(key);
    if (v === undefined || v === '') throw new Error(`${key} is required`);
    return v;
  };
  const iban = need('IBAN');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) || !mod97(iban))
    throw new Error(`IBAN ${iban} is not valid`);
  const amount = need('AM');
  if (!/^(0|[1-9]\d{0,5})\.\d{2}$/.test(amount) || amount.length > 9 || amount === '0.00')
    throw new Error(`AM ${amount} is not an amount with 2 decimals`);
  if (need('CC') !== 'EUR') throw new Error('CC must be EUR');
  const paymentId = need('PI');
  if (!/^QR-[0-9a-f]{32}$/.test(paymentId)) throw new Error(`PI ${paymentId} is not a QR payment id`);
  const creditorName = need('CN');
  if (creditorName.length > 70 || !ALLOWED.test(creditorName))
    throw new Error(`CN "${creditorName}" breaks the rules`);
  const message = params.get('MSG');
  if (message !== undefined && (message.length > 140 || !ALLOWED.test(message)))
    throw new Error(`MSG "${message}" breaks the rules`);
  return {
    type: m[1] as 'm' | 'p',
    iban,
    amount,
    currency: 'EUR',
    paymentId,
    creditorName,
    ...(message === undefined ? {} : { message }),
  };
}

function mod97(iban: string): boolean {
  let r = 0;
  for (const ch of iban.slice(4) + iban.slice(0, 4)) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) r = (r * 10 + Number(d)) % 97;
  }
  return r === 1;
}
