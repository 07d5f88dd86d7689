/**
 * A usage problem (bad flag, bad value, unavailable target, data dir held by another process): the
 * CLI exits with code 2 and one line naming it. It lives outside `cli/` because the composition
 * root raises it too.
 */
export class UsageError extends Error {}
