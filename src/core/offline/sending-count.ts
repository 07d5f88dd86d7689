/**
 * The SendingCount of the next attempt of a stored message made after its first one (protocol
 * reference §1.9: 1 on the first attempt, +1 on each retry). `recordedSendingCount` is the highest
 * SendingCount the CHDÚ records for it — outcomes and the starts of later attempts alike
 * (`sfs-attempt`, ADR 0705), so an attempt whose outcome was lost with the process still counts.
 * The first attempt belongs to the request that stored the message; a message with no recorded
 * attempt was stored by a register that stopped before it could record one, so that attempt counts
 * as made (it may have reached the SFS): the next one is at least 2.
 */
export function nextSendingCount(recordedSendingCount: number): number {
  return Math.max(recordedSendingCount, 1) + 1;
}
