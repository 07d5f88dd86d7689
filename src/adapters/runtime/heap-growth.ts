import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets `kasa serve`'s JavaScript heap grow past what it still holds after a full
 * collection, in percent (ADR 1112). V8 picks a factor between 1.1 and 4 by itself from how fast
 * it collects against how fast the program allocates; a register storing receipts back to back
 * allocates fast, so the committed heap climbed to two or three times the ~70 MB in use and was
 * given back only when the process idled — the RSS after 100,000 stores (capability 13, figure 6)
 * moved with it. 50 % keeps room for half the live heap again before the next full collection.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor for this process. V8 reads it each time it sets the next
 * collection's limit, so it holds from the next full collection on; called by `kasa serve` before
 * the register is composed.
 */
export function boundHeapGrowth(setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
