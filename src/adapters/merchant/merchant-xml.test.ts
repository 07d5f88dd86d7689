import { describe, expect, it } from 'vitest';
import { FiscalError } from '../../core/fiscal-error.js';
import { authDataFromXml } from '../../core/merchant/auth-data.js';
import { identityDataFromXml } from '../../core/merchant/identity-data.js';
import { parseXmlTree } from './xml-tree-parser.js';

const NS = 'http://financnasprava.sk/ekasa/udaje/schema/v2';

const ADDRESS = `<eu:Country>Slovenská republika</eu:Country><eu:Municipality>Bratislava</eu:Municipality>
<eu:StreetName>Hlavná</eu:StreetName><eu:BuildingNumber>1</eu:BuildingNumber>
<eu:DeliveryAddress><eu:PostalCode>81101</eu:PostalCode></eu:DeliveryAddress>`;

function identityXml(parts: Partial<Record<'dic' | 'head' | 'ou' | 'tail', string>> = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<eu:IdentityData xmlns:eu="${NS}">
  ${parts.dic ?? '<eu:Dic>1234567890</eu:Dic>'}
  ${parts.head ?? '<eu:Ico>76543210</eu:Ico><eu:IcDph>SK1234567890</eu:IcDph><eu:CorporateBodyFullName>Firma s.r.o.</eu:CorporateBodyFullName>'}
  <eu:OrganizationUnit>
    ${parts.ou ?? `<eu:OrganizationUnitName>Predajňa</eu:OrganizationUnitName><eu:PhysicalAddress>${ADDRESS}</eu:PhysicalAddress><eu:CashRegisterCode>88812345678900001</eu:CashRegisterCode><eu:CashRegisterType>STANDARD</eu:CashRegisterType>`}
  </eu:OrganizationUnit>
  ${parts.tail ?? `<eu:PhysicalAddress>${ADDRESS}</eu:PhysicalAddress>`}
</eu:IdentityData>`;
}

function readIdentity(xml: string) {
  return identityDataFromXml(parseXmlTree(xml, 'identification data'));
}

function failure(fn: () => unknown): { code: string; field: unknown } {
  try {
    fn();
  } catch (e) {
    if (e instanceof FiscalError) return { code: e.resultName, field: e.details?.field };
    throw e;
  }
  return { code: 'none', field: undefined };
}

describe('identification data (XSD IdentityData v2.0)', () => {
  it('reads a valid file with any prefix or the default namespace', () => {
    const prefixed = readIdentity(identityXml());
    expect(prefixed.organizationUnit.physicalAddress?.postalCode).toBe('81101');
    const other = readIdentity(identityXml().replaceAll('eu:', 'x:').replace('xmlns:eu=', 'xmlns:x='));
    const plain = readIdentity(identityXml().replaceAll('eu:', '').replace('xmlns:eu=', 'xmlns='));
    expect(other).toEqual(prefixed);
    expect(plain).toEqual(prefixed);
    expect(prefixed).toMatchObject({
      dic: '1234567890',
      ico: '76543210',
      icDph: 'SK1234567890',
      corporateBodyFullName: 'Firma s.r.o.',
      organizationUnit: {
        organizationUnitName: 'Predajňa',
        cashRegisterCode: '88812345678900001',
        cashRegisterType: 'STANDARD',
      },
      physicalAddress: {
        country: 'Slovenská republika',
        municipality: 'Bratislava',
        streetName: 'Hlavná',
        buildingNumber: '1',
      },
    });
  });

  it('accepts a PORTABLE register without an organisation unit address and without Ico/IcDph', () => {
    const id = readIdentity(
      identityXml({
        head: '<eu:CorporateBodyFullName>Ján Novák</eu:CorporateBodyFullName>',
        ou: '<eu:CashRegisterCode>8881234567890001</eu:CashRegisterCode><eu:CashRegisterType>PORTABLE</eu:CashRegisterType>',
      }),
    );
    expect(id.ico).toBeUndefined();
    expect(id.icDph).toBeUndefined();
    expect(id.organizationUnit.physicalAddress).toBeUndefined();
    expect(id.organizationUnit.cashRegisterCode).toBe('8881234567890001');
  });

  it.each([
    ['Dic of 9 digits', { dic: '<eu:Dic>123456789</eu:Dic>' }, 'IdentityData/Dic'],
    [
      'Dic with spaces (xs:string keeps whitespace)',
      { dic: '<eu:Dic> 1234567890</eu:Dic>' },
      'IdentityData/Dic',
    ],
    ['Dic missing', { dic: '' }, 'IdentityData/Dic'],
    [
      'Ico of 6 digits',
      { head: '<eu:Ico>765432</eu:Ico><eu:CorporateBodyFullName>F</eu:CorporateBodyFullName>' },
      'IdentityData/Ico',
    ],
    [
      'IcDph without SK',
      { head: '<eu:IcDph>CZ12345678</eu:IcDph><eu:CorporateBodyFullName>F</eu:CorporateBodyFullName>' },
      'IdentityData/IcDph',
    ],
    [
      'IcDph before Ico',
      {
        head: '<eu:IcDph>SK1234567890</eu:IcDph><eu:Ico>76543210</eu:Ico><eu:CorporateBodyFullName>F</eu:CorporateBodyFullName>',
      },
      'IdentityData/Ico',
    ],
    [
      'empty name',
      { head: '<eu:CorporateBodyFullName></eu:CorporateBodyFullName>' },
      'IdentityData/CorporateBodyFullName',
    ],
    [
      'name of 1025 characters',
      { head: `<eu:CorporateBodyFullName>${'a'.repeat(1025)}</eu:CorporateBodyFullName>` },
      'IdentityData/CorporateBodyFullName',
    ],
    ['name missing', { head: '<eu:Ico>76543210</eu:Ico>' }, 'IdentityData/CorporateBodyFullName'],
    [
      'register code of 15 digits',
      {
        ou: '<eu:CashRegisterCode>888123456789000</eu:CashRegisterCode><eu:CashRegisterType>PORTABLE</eu:CashRegisterType>',
      },
      'IdentityData/OrganizationUnit/CashRegisterCode',
    ],
    [
      'register type MOBILE',
      {
        ou: '<eu:CashRegisterCode>88812345678900001</eu:CashRegisterCode><eu:CashRegisterType>MOBILE</eu:CashRegisterType>',
      },
      'IdentityData/OrganizationUnit/CashRegisterType',
    ],
    [
      'register type missing',
      { ou: '<eu:CashRegisterCode>88812345678900001</eu:CashRegisterCode>' },
      'IdentityData/OrganizationUnit/CashRegisterType',
    ],
    [
      'STANDARD without a place of sale',
      {
        ou: '<eu:CashRegisterCode>88812345678900001</eu:CashRegisterCode><eu:CashRegisterType>STANDARD</eu:CashRegisterType>',
      },
      'IdentityData/OrganizationUnit/PhysicalAddress',
    ],
    [
      'street of 256 characters',
      {
        tail: `<eu:PhysicalAddress><eu:Country>SK</eu:Country><eu:Municipality>BA</eu:Municipality><eu:StreetName>${'s'.repeat(256)}</eu:StreetName></eu:PhysicalAddress>`,
      },
      'IdentityData/PhysicalAddress/StreetName',
    ],
    [
      'address without Country',
      {
        tail: '<eu:PhysicalAddress><eu:Municipality>BA</eu:Municipality><eu:StreetName>S</eu:StreetName></eu:PhysicalAddress>',
      },
      'IdentityData/PhysicalAddress/Country',
    ],
    [
      'empty postal code',
      {
        tail: '<eu:PhysicalAddress><eu:Country>SK</eu:Country><eu:Municipality>BA</eu:Municipality><eu:StreetName>S</eu:StreetName><eu:DeliveryAddress><eu:PostalCode/></eu:DeliveryAddress></eu:PhysicalAddress>',
      },
      'IdentityData/PhysicalAddress/DeliveryAddress/PostalCode',
    ],
    ['seat address missing', { tail: '' }, 'IdentityData/PhysicalAddress'],
    [
      'unknown element',
      { tail: `<eu:PhysicalAddress>${ADDRESS}</eu:PhysicalAddress><eu:Exception>true</eu:Exception>` },
      'IdentityData/Exception',
    ],
    [
      'repeated element',
      { dic: '<eu:Dic>1234567890</eu:Dic><eu:Dic>1234567890</eu:Dic>' },
      'IdentityData/Dic',
    ],
    ['element in another namespace', { dic: '<Dic xmlns="urn:other">1234567890</Dic>' }, 'IdentityData/Dic'],
    ['attribute on an element', { dic: '<eu:Dic id="1">1234567890</eu:Dic>' }, 'IdentityData/Dic'],
    [
      'child element in a simple value',
      { dic: '<eu:Dic><eu:b>1234567890</eu:b></eu:Dic>' },
      'IdentityData/Dic',
    ],
  ])('%s → 400 naming the field', (_name, parts, field) => {
    expect(failure(() => readIdentity(identityXml(parts)))).toEqual({ code: 'MERCHANT_WRONG_FORMAT', field });
  });

  it('allows xsi attributes and comments as an XSD validator does', () => {
    const xml = identityXml()
      .replace(
        `xmlns:eu="${NS}"`,
        `xmlns:eu="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${NS} x.xsd"`,
      )
      .replace('<eu:Dic>', '<!-- DIČ --><eu:Dic>');
    expect(readIdentity(xml).dic).toBe('1234567890');
  });

  it.each([
    ['not XML', 'hello'],
    ['empty', ''],
    ['not well-formed', '<eu:IdentityData xmlns:eu="x"><eu:Dic>1</eu:IdentityData>'],
    [
      'a DOCTYPE',
      '<!DOCTYPE x [<!ENTITY a "b">]><IdentityData xmlns="http://financnasprava.sk/ekasa/udaje/schema/v2"/>',
    ],
    ['another root', `<AuthData xmlns="${NS}"/>`],
    ['the right root in no namespace', '<IdentityData/>'],
  ])('%s → 404', (_name, xml) => {
    expect(failure(() => readIdentity(xml)).code).toBe('MERCHANT_PARSE_ERROR');
  });
});

describe('authentication data (XSD AuthData v2.0)', () => {
  const auth = (body: string) =>
    authDataFromXml(parseXmlTree(`<AuthData xmlns="${NS}">${body}</AuthData>`, 'authentication data'));

  it('decodes the keystore, allowing line breaks in the Base64', () => {
    const data = auth(
      '<KeyStoreType>PKCS12</KeyStoreType><Data>AAEC\nAwQF</Data><CertificateAlias>a</CertificateAlias>',
    );
    expect([...data.keyStore]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(data.certificateAlias).toBe('a');
  });

  it.each([
    [
      'KeyStoreType JKS',
      '<KeyStoreType>JKS</KeyStoreType><Data>AAAA</Data><CertificateAlias>a</CertificateAlias>',
      'AuthData/KeyStoreType',
    ],
    [
      'Data missing',
      '<KeyStoreType>PKCS12</KeyStoreType><CertificateAlias>a</CertificateAlias>',
      'AuthData/Data',
    ],
    [
      'Data not Base64',
      '<KeyStoreType>PKCS12</KeyStoreType><Data>AA*A</Data><CertificateAlias>a</CertificateAlias>',
      'AuthData/Data',
    ],
    [
      'Data cut off',
      '<KeyStoreType>PKCS12</KeyStoreType><Data>AAAAA</Data><CertificateAlias>a</CertificateAlias>',
      'AuthData/Data',
    ],
    [
      'Data empty',
      '<KeyStoreType>PKCS12</KeyStoreType><Data></Data><CertificateAlias>a</CertificateAlias>',
      'AuthData/Data',
    ],
    [
      'alias of 51 characters',
      `<KeyStoreType>PKCS12</KeyStoreType><Data>AAAA</Data><CertificateAlias>${'a'.repeat(51)}</CertificateAlias>`,
      'AuthData/CertificateAlias',
    ],
    ['alias missing', '<KeyStoreType>PKCS12</KeyStoreType><Data>AAAA</Data>', 'AuthData/CertificateAlias'],
  ])('%s → 404 naming the field', (_name, body, field) => {
    expect(failure(() => auth(body))).toEqual({ code: 'MERCHANT_PARSE_ERROR', field });
  });
});
