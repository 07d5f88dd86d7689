import { formatQrDateTime, parseSfsDateTime } from '../time.js';
import type { SfsReceiptRequest } from './message.js';

/**
 * The offline QR code text (SFS spec §2.4): `OKP:CashRegisterCode:yyMMddHHmmss:ReceiptNumber:Amount`.
 * The date is CreateDate in Europe/Bratislava local time; Amount is the message's own string.
 */
export function offlineQrText(request: Pick<SfsReceiptRequest, 'okp'> & { data: OfflineQrData }): string {
  const created = parseSfsDateTime(request.data.CreateDate);
  if (!created) throw new RangeError(`CreateDate is not an SFS dateTime: ${request.data.CreateDate}`);
  const { CashRegisterCode, ReceiptNumber, Amount } = request.data;
  return [request.okp, CashRegisterCode, formatQrDateTime(created), ReceiptNumber, Amount].join(':');
}

export interface OfflineQrData {
  CashRegisterCode: string;
  CreateDate: string;
  ReceiptNumber: string;
  Amount: string;
}
