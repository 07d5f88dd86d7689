/** A usage problem (bad flag, bad value, unavailable target): exit code 2, one line naming it. */
export class UsageError extends Error {}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
