/**
 * Where NOP is (research §2.1): the ERP REST base, the MQTT broker and the CA bundle that signs
 * their server certificates (undefined = the system's trusted CAs).
 */
export interface NopEndpoints {
  erpUrl: string;
  mqttUrl: string;
  serverCaPem?: string;
  /** Kept with each intent: `int`, `prod`, `sim` or `custom`. */
  label: string;
}

/** The FS hosts (KVERKOM). SNI carries the host name (Node sends it for names, not for IPs). */
export const OFFICIAL_NOP_ENDPOINTS: Record<'int' | 'prod', NopEndpoints> = {
  int: { erpUrl: 'https://api-erp-i.kverkom.sk', mqttUrl: 'mqtts://mqtt-i.kverkom.sk:8883', label: 'int' },
  prod: { erpUrl: 'https://api-erp.kverkom.sk', mqttUrl: 'mqtts://mqtt.kverkom.sk:8883', label: 'prod' },
};
