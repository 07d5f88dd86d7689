import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Field names that may hold secrets (passwords, keys of any kind, tokens, authentication data,
 * credentials). Their values are replaced wherever they appear in a log object, at any depth
 * (pino's own `redact` needs fixed paths, which misses nested or new places). Broad on purpose: a
 * harmless field redacted costs nothing, a secret logged cannot be taken back.
 */
const SECRET_KEY = /pass(word|wd|phrase)?|secret|key|token|auth|credential|signature|^pin$|^cookie$/i;
/pass(word|wd|phrase)?|secret|private.?key|key.?store|authentication.?data|auth.?data|authorization|token|^pin$/i;

export const REDACTED = '[REDACTED]';

export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) ? REDACTED : redactSecrets(v, depth + 1);
  }
  return out;
}

/** The process logger: pino JSON lines, secrets redacted at any depth. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'kasa' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { log: (obj) => redactSecrets(obj) as Record<string, unknown> },
    },
    destination,
  );
}
