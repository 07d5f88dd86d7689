import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in the data dir that keeps this installation's MQTT client id suffix. */
export const CLIENT_ID_SUFFIX_FILE = 'nop-client-id';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const SUFFIX = /^[0-9a-z]{5}$/;

/**
 * This installation's MQTT client id suffix (ADR 0908): five random characters of [0-9a-z],
 * created on first use and kept in `<data-dir>/nop-client-id`, so the persistent session survives
 * a restart while another program using the same certificate (another kasa, a test tool) never
 * takes over kasa's session by connecting with the same client id. An unreadable or malformed
 * file is replaced (the broker then sees a new client, and kasa catches up through the listing).
 */
export function loadClientIdSuffix(dataDir: string): string {
  const path = join(dataDir, CLIENT_ID_SUFFIX_FILE);
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (SUFFIX.test(kept)) return kept;
  } catch {
    // absent: created below
  }
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, `${suffix}\n`, { mode: 0o600 });
  return suffix;
}

/**
 * The MQTT client id: `k` + the 17-digit register code + the suffix = 23 characters of [0-9a-z].
 * MQTT 3.1.1 §3.1.3.1 obliges every broker to accept 1–23 bytes of `0-9a-zA-Z`; longer ids or
 * other characters (such as `-`) are allowed only at the broker's discretion, and NOP publishes no
 * rule of its own (research §2.5 names none).
 */
export function mqttClientId(cashRegisterCode: string, suffix: string): string {
  return `k${cashRegisterCode}${suffix}`;
}
