/** The receipt the README shows: three items, three VAT rates, paid in cash. */
export function storeBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'PD',
    amount: 7.45,
    documentEntries: [
      { name: 'Káva', price: 2.5, quantity: 2, vatRate: 'VAT_23', itemType: 'SALE' },
      { name: 'Rožok', price: 0.15, quantity: 3, vatRate: 'VAT_5', itemType: 'SALE' },
      { name: 'Fľaša zálohovaná', price: 2, quantity: 1, vatRate: 'VAT_0', itemType: 'PACKING' },
    ],
    payments: { Hotovosť: 7.45 },
    ...extra,
  };
}
