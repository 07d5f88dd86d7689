import { describe, expect, it } from 'vitest';
import { offlineQrText } from './offline-qr.js';

describe('offline QR', () => {
  it('uses CreateDate in Bratislava local time, whatever the host zone', () => {
    expect(process.env.TZ).toBe('America/New_York');
    const text = offlineQrText({
      okp: 'c44b3977-0e415cc6-ee663aa1-776c973a-a143b660',
      data: {
        CashRegisterCode: '99920045678900001',
        CreateDate: '2018-02-13T09:34:14+01:00',
        ReceiptNumber: '23',
        Amount: '237.23',
      },
    });
    expect(text).toBe(
      'c44b3977-0e415cc6-ee663aa1-776c973a-a143b660:99920045678900001:180213093414:23:237.23',
    );
  });

  it('formats summer time from a CEST CreateDate', () => {
    const text = offlineQrText({
      okp: 'b1873ce0-46db4d14-efc72036-62c71ae1-71628710',
      data: {
        CashRegisterCode: '88812345678900001',
        CreateDate: '2026-07-01T00:05:09+02:00',
        ReceiptNumber: '1',
        Amount: '0.50',
      },
    });
    expect(text).toBe('b1873ce0-46db4d14-efc72036-62c71ae1-71628710:88812345678900001:260701000509:1:0.50');
  });
});
