// `npm run test:crash [-- --kills N] [--seed S] [--keep]`: the full crash run (default 200 kills).
// Prints its seed first; replay a run with --seed.
import { runCrashHarness } from './crash-harness.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const kills = Number(arg('kills') ?? process.env.KASA_CRASH_KILLS ?? 200);
const seed = Number(arg('seed') ?? process.env.KASA_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(kills) || kills < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run test:crash -- [--kills N] [--seed S] [--keep]');
  process.exit(2);
}
const report = await runCrashHarness({
  kills,
  seed,
  keep: process.argv.includes('--keep'),
  log: (line) => console.log(line),
});
for (const f of report.failures) console.error(`FAILED: ${f}`);
if (report.failures.length > 0) console.error(`kept for inspection: ${report.root}`);
process.exit(report.failures.length === 0 ? 0 : 1);
