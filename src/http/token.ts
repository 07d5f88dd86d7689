import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time check of `Authorization: Bearer <token>`. */
export function tokenMatches(authorization: string | undefined, token: string): boolean {
  if (authorization === undefined) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) return false;
  return timingSafeEqual(digest(m[1]!), digest(token));
}
