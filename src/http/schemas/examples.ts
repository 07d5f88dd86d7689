/** Example values for the OpenAPI document (taken from a real run of the demo register). */

const address = {
  country: 'Slovenská republika',
  municipality: 'Bratislava',
  street: 'Hlavná',
  buildingNumber: '1',
  propertyRegistrationNumber: '1234',
  postalCode: '81101',
};

export const exampleMerchant = {
  id: 1,
  corporateFullName: 'Obchod s.r.o.',
  ico: '76543210',
  dic: '1234567890',
  icDph: 'SK1234567890',
  physicalAddress: address,
  organizationUnit: {
    name: 'Predajňa Hlavná',
    cashRegisterCode: '88812345678900001',
    cashRegisterType: 'STANDARD' as const,
    location: { physicalAddress: address },
  },
  demo: false,
  certificate: {
    state: 'OK' as const,
    status: 'OK' as const,
    expirationDate: '21.11.2028 06:22:06',
    validFrom: '22.11.2026 06:21:06',
    showWarning: false,
    daysLeft: 729,
    notYetValid: false,
    subject:
      'CN=VATSK-1234567890 POKLADNICA 88812345678900001, OU=88812345678900001, organizationIdentifier=VATSK-1234567890, C=SK',
    issuer: 'CN=TEST eKasa CA, O=Disig a.s., C=SK',
    serialNumber: '1C80125691EF7EF94390D578D850C4C4',
    sha256: '733c5816433cc1f336659782c09cd80a4ec883f63195dae38f8a15643f7a393a',
  },
};

const pkp =
  'PGZH1kgi647GhlU4iBCa6/i6rv8nCS2hbX+J88OOzscJ7pkDc+/aimDzvAV/Xmqt4ndh1q/hbz6QQDBpP+DxGm40/gUM+Ca5bgP4LEI5CMacHtgxDbp5AvyNnc/srkgPozvTyFNWp0lQfN6V6RY9cmrpOFU+fuEe8hSBBxiUccNF+FrBZeS0lS69FCyKdXg0MhMWE0RfBShte0H2c0BJ496auZX6+w4qvLgF4trYln9zX8n4NeeozsLFSuaT80iLJUA6T54mf7Nv+YRaPMKw27GzMM/7SBa/2Edv7E35mx3CR/4ScTduKsoeD4sFL7uJxW10uebtT9oA0xzugU6bhw==';

export const exampleDocument = {
  type: 'PD' as const,
  merchant: exampleMerchant,
  cashRegisterCode: '88812345678900001',
  amount: 7.45,
  issueDate: '22.11.2026 06:22:13',
  createDate: '22.11.2026 06:22:13',
  processDate: '22.11.2026 06:22:13',
  sequenceId: 1,
  uuid: 'O-A2903F84AE8242C1A3C8FA5069D257B3',
  pkp,
  okp: 'e31a3ae1-ba4aaa4d-408808ba-590468cc-cb27cf55',
  qrCode: 'O-A2903F84AE8242C1A3C8FA5069D257B3',
  documentEntries: [
    {
      type: 'SALE' as const,
      name: 'Káva',
      price: 2.5,
      quantity: 2,
      totalPrice: 5,
      vatRate: 'VAT_23' as const,
    },
    {
      type: 'SALE' as const,
      name: 'Rožok',
      price: 0.15,
      quantity: 3,
      totalPrice: 0.45,
      vatRate: 'VAT_5' as const,
    },
    {
      type: 'PACKING' as const,
      name: 'Fľaša',
      price: 2,
      quantity: 1,
      totalPrice: 2,
      vatRate: 'VAT_0' as const,
    },
  ],
  vatRateSums: [
    { title: 'VAT_23', base: 4.07, vat: 0.93, sum: 5 },
    { title: 'VAT_5', base: 0.43, vat: 0.02, sum: 0.45 },
    { title: 'VAT_0', base: 2, vat: 0, sum: 2 },
    { title: 'TOTAL', base: 6.5, vat: 0.95, sum: 7.45 },
  ],
  paymentTypes: { Hotovosť: 7.45 },
  exception: false,
  electronic: false,
  documentNumber: '202611/1',
  internalDocumentId: 1,
  sendingCount: 1,
};

export const exampleCash = {
  internalDocumentId: 2,
  sequenceId: 2,
  merchant: exampleMerchant,
  cashRegisterCode: '88812345678900001',
  amount: -100,
  issueDate: '22.11.2026 06:30:00',
  createDate: '22.11.2026 06:30:00',
  pkp,
  okp: 'b1873ce0-46db4d14-efc72036-62c71ae1-71628710',
  exception: false,
  electronic: false,
  documentNumber: '202611/2',
  sendingCount: 1,
  qrCode: 'b1873ce0-46db4d14-efc72036-62c71ae1-71628710:88812345678900001:261122063000:2:100.00',
  status: {
    warning: {
      warningType: 'OFFLINE',
      message: 'The document was not registered online; it is stored and will be sent later.',
      detail: 'last attempt 1: unreachable (no answer within 5000 ms)',
    },
  },
  documentType: 'VY' as const,
};
