import { expect, it } from 'vitest';
import { runCrashHarness } from './crash-harness.js';

// The CI part of the crash harness (the full run is `npm run test:crash`, 200 kills): 20 SIGKILLs
// under load, every check after each restart. Seeded; KASA_CRASH_SEED replays a run.
const kills = Number(process.env.KASA_CRASH_CI_KILLS ?? 20);
const seed = Number(process.env.KASA_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

it(`survives ${kills} SIGKILLs under load without losing, changing or duplicating a document (seed ${seed})`, async () => {
  const report = await runCrashHarness({ kills, seed, log: (line) => console.log(line) });
  expect(report.failures, `seed ${seed}; folder ${report.root}`).toEqual([]);
  expect(report.kills).toBe(kills);
  expect(report.acknowledged).toBeGreaterThan(kills);
  expect(report.documents).toBeGreaterThanOrEqual(report.acknowledged);
}, 900_000);
