/**
 * The key one paragón is found by (ADR 0431): its number and the calendar day of its IssueDate,
 * read from the SFS text (`2026-11-24T14:30:00+01:00`: Bratislava local time, so the first ten
 * characters are the shop's day). A paragón book numbers its paper receipts one after the other, so
 * the same number on the same day is the same paper receipt entered again.
 */
export function paragonKey(paragonNumber: string | number, sfsIssueDate: string): string {
  return `${String(paragonNumber)}|${sfsIssueDate.slice(0, 10)}`;
}
