import type { SfsReceiptData } from '../sfs/message.js';

/**
 * Offline QR content (SFS spec §2.4): `OKP:CashRegisterCode:YYMMDDHHMISS:ReceiptNumber:Amount`,
 * the date-time being CreateDate in local time and Amount as written in the XSD.
 * NOTE: a local copy until the `src/core/sfs/` QR module lands on main; de-duplicate then.
 */
export function offlineQrCode(
  sfs: Pick<SfsReceiptData, 'CashRegisterCode' | 'CreateDate' | 'ReceiptNumber' | 'Amount'>,
  okp: string,
): string {
  // The SFS dateTime already is Bratislava wall time: take its digits, not the host's zone.
  const m = /^\d{2}(\d{2})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})[+-]\d{2}:\d{2}$/.exec(sfs.CreateDate);
  if (!m) throw new RangeError(`not an SFS dateTime: ${sfs.CreateDate}`);
  return [okp, sfs.CashRegisterCode, m.slice(1).join(''), sfs.ReceiptNumber, sfs.Amount].join(':');
}
