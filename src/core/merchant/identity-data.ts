import { FiscalError } from '../fiscal-error.js';
import { UDAJE_NS, type XmlNode } from './xml-tree.js';
import {
  checkElement,
  child,
  childText,
  enumeration,
  length,
  pattern,
  type SequenceType,
} from './xsd-sequence.js';

/**
 * The merchant's identification data (`IdentityData`, XSD `identifikacneUdaje_v2.0_20190117.xsd`,
 * SFS "Popis identifikačných a autentifikačných údajov" v2.1, identification data XSD v2.0): who the merchant is and which register this is.
 * Values are kept exactly as written in the file.
 */
export interface IdentityData {
  dic: string;
  ico?: string;
  icDph?: string;
  corporateBodyFullName: string;
  organizationUnit: {
    organizationUnitName?: string;
    physicalAddress?: PhysicalAddress;
    cashRegisterCode: string;
    cashRegisterType: CashRegisterType;
  };
  physicalAddress: PhysicalAddress;
}

export type CashRegisterType = 'STANDARD' | 'PORTABLE';

export interface PhysicalAddress {
  country: string;
  municipality: string;
  streetName: string;
  buildingNumber?: string;
  propertyRegistrationNumber?: string;
  /** `DeliveryAddress/PostalCode`. */
  postalCode?: string;
}

// XSD simple types (identifikacneUdaje_v2.0): DicType, IcoType, IcDphType, String1To255Type, ...
const DIC = pattern('[0-9]{10}');
const ICO = pattern('[0-9]{8}');
const IC_DPH = pattern('SK[0-9]{8,10}');
const CASH_REGISTER_CODE = pattern('[0-9]{16,17}');
const CASH_REGISTER_TYPE = enumeration(['STANDARD', 'PORTABLE']);
const S255 = length(1, 255);
const S1024 = length(1, 1024);

const PHYSICAL_ADDRESS: SequenceType = {
  sequence: [
    { name: 'Country', type: S255 },
    { name: 'Municipality', type: S255 },
    { name: 'StreetName', type: S255 },
    { name: 'BuildingNumber', optional: true, type: S255 },
    { name: 'PropertyRegistrationNumber', optional: true, type: S255 },
    { name: 'DeliveryAddress', optional: true, type: { sequence: [{ name: 'PostalCode', type: S255 }] } },
  ],
};

/** `CorporateBodyCType`, the content of the root element `IdentityData`. */
export const IDENTITY_DATA_TYPE: SequenceType = {
  sequence: [
    { name: 'Dic', type: DIC },
    { name: 'Ico', optional: true, type: ICO },
    { name: 'IcDph', optional: true, type: IC_DPH },
    { name: 'CorporateBodyFullName', type: S1024 },
    {
      name: 'OrganizationUnit',
      type: {
        sequence: [
          { name: 'OrganizationUnitName', optional: true, type: S1024 },
          { name: 'PhysicalAddress', optional: true, type: PHYSICAL_ADDRESS },
          { name: 'CashRegisterCode', type: CASH_REGISTER_CODE },
          { name: 'CashRegisterType', type: CASH_REGISTER_TYPE },
        ],
      },
    },
    { name: 'PhysicalAddress', type: PHYSICAL_ADDRESS },
  ],
};

/** 400 MERCHANT_WRONG_FORMAT naming the field (an element path such as `IdentityData/Dic`). */
export function wrongIdentity(field: string, rule: string): FiscalError {
  return new FiscalError('MERCHANT_WRONG_FORMAT', `identification data ${field}: ${rule}`, { field });
}

/**
 * Checks a parsed identification data file against every rule of the XSD, plus one rule of the
 * SFS sample ("PhysicalAddress of the organisation unit is mandatory for STANDARD", which also
 * gives a STANDARD register its place of sale, ADR 0008 §6), and returns its data.
 *
 * @throws FiscalError 404 MERCHANT_PARSE_ERROR when the root is not `IdentityData` in the SFS
 *   namespace (not an identification data file at all); 400 MERCHANT_WRONG_FORMAT naming the
 *   element for any other broken rule.
 */
export function identityDataFromXml(root: XmlNode): IdentityData {
  if (root.namespace !== UDAJE_NS || root.localName !== 'IdentityData') {
    throw new FiscalError(
      'MERCHANT_PARSE_ERROR',
      `identification data: the root element must be IdentityData in namespace ${UDAJE_NS}, found ${root.localName}`,
      { field: 'IdentityData' },
    );
  }
  const violation = checkElement(root, 'IdentityData', IDENTITY_DATA_TYPE, UDAJE_NS);
  if (violation) throw wrongIdentity(violation.path, violation.rule);

  const ou = child(root, 'OrganizationUnit')!;
  const ouAddress = child(ou, 'PhysicalAddress');
  const data: IdentityData = {
    dic: childText(root, 'Dic')!,
    ...optional('ico', childText(root, 'Ico')),
    ...optional('icDph', childText(root, 'IcDph')),
    corporateBodyFullName: childText(root, 'CorporateBodyFullName')!,
    organizationUnit: {
      ...optional('organizationUnitName', childText(ou, 'OrganizationUnitName')),
      ...(ouAddress ? { physicalAddress: address(ouAddress) } : {}),
      cashRegisterCode: childText(ou, 'CashRegisterCode')!,
      cashRegisterType: childText(ou, 'CashRegisterType') as CashRegisterType,
    },
    physicalAddress: address(child(root, 'PhysicalAddress')!),
  };
  if (data.organizationUnit.cashRegisterType === 'STANDARD' && !data.organizationUnit.physicalAddress) {
    throw wrongIdentity(
      'IdentityData/OrganizationUnit/PhysicalAddress',
      'required for a STANDARD register (its place of sale)',
    );
  }
  return data;
}

function address(node: XmlNode): PhysicalAddress {
  const delivery = child(node, 'DeliveryAddress');
  return {
    country: childText(node, 'Country')!,
    municipality: childText(node, 'Municipality')!,
    streetName: childText(node, 'StreetName')!,
    ...optional('buildingNumber', childText(node, 'BuildingNumber')),
    ...optional('propertyRegistrationNumber', childText(node, 'PropertyRegistrationNumber')),
    ...optional('postalCode', delivery ? childText(delivery, 'PostalCode') : undefined),
  };
}

/** `{key: value}` when the value is present, `{}` otherwise (exactOptionalPropertyTypes). */
function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });
}
