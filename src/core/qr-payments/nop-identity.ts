/**
 * Who the register is to NOP: read from its eKasa certificate subject
 * (`CN=VATSK-<DIČ> POKLADNICA <register code>`), which NOP uses for authorisation and the topic ACL
 * (ADR 0906). The topic of the register's notifications is `VATSK-<DIČ>/POKLADNICA-<code>/<id>`.
 */
export interface NopIdentity {
  dic: string;
  cashRegisterCode: string;
}

/** The identity a certificate subject names, or undefined when it names none. */
export function identityFromSubject(subject: string): NopIdentity | undefined {
  const vatsk = /(?<![A-Za-z0-9])VATSK-(\d{10})(?!\d)/.exec(subject);
  const register = /POKLADNICA[ -](\d{17})(?!\d)/.exec(subject);
  if (!vatsk || !register) return undefined;
  return { dic: vatsk[1]!, cashRegisterCode: register[1]! };
}

/** `VATSK-<DIČ>/POKLADNICA-<code>`: the register's topic prefix and REST path part. */
export function registerTopic(identity: NopIdentity): string {
  return `VATSK-${identity.dic}/POKLADNICA-${identity.cashRegisterCode}`;
}
