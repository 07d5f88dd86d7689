import { createHash } from 'node:crypto';
import type { Sha256 } from '../../core/journal/hash-chain.js';

/** SHA-256 from node:crypto, for the journal's hash chain. */
export const nodeSha256: Sha256 = (data) => createHash('sha256').update(data).digest();
