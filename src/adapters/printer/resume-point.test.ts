import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../config/printer-profile.js';
import { layoutFreeText } from '../../core/receipt/free-text-layout.js';
import { EscPosEncoder, type EscPosJob } from './escpos-encoder.js';
import { type JobProgress, stoppedAt } from './resume-point.js';

const layout = layoutFreeText('Prvý riadok\nDruhý riadok', 48);
const encoder = new EscPosEncoder(DEFAULT_PROFILE);

/** The first `n` units of `job` written from `from` and confirmed arrived, as a line from 0. */
function progress(job: EscPosJob, n: number, from = 0, printedEnd?: number): JobProgress {
  const units = job.units.filter((u) => u.start >= from).slice(0, n);
  const sent = units.map((u) => ({ end: u.end, lineEnd: u.end - from }));
  return {
    job,
    jobSha256: 'x',
    from,
    sent,
    arrivedLine: sent.at(-1)?.lineEnd ?? 0,
    bufferBytes: DEFAULT_PROFILE.bufferBytes,
    ...(printedEnd === undefined ? {} : { printedEnd }),
  };
}

describe('a job counts as started once receipt content was confirmed (ADR 0507 as amended)', () => {
  it.each([
    ['with', true],
    ['without', false],
  ])('the first unit (ESC @, %s the kick) confirmed alone: not started', (_, kick) => {
    const job = encoder.encode(layout, kick ? { openDrawer: true } : {});
    expect(stoppedAt(progress(job, 1)).started).toBe(false);
    // confirm=printed: the process ID after the first unit came back.
    expect(stoppedAt(progress(job, 1, 0, job.units[0]!.end)).started).toBe(false);
  });

  it('the first line confirmed: started, and that line is reported (arrived, printing not confirmed)', () => {
    const job = encoder.encode(layout, { openDrawer: true });
    const stopped = stoppedAt(progress(job, 2));
    expect(stopped.started).toBe(true);
    expect(stopped.info.printedLines).toBe(0);
    expect(stopped.info.unconfirmedLines).toBe(1);
    expect(stopped.info.resumeOffset).toBe(job.units[0]!.end);
  });

  it('the first line confirmed printed (process ID): started, one line printed', () => {
    const job = encoder.encode(layout, { openDrawer: true });
    const stopped = stoppedAt(progress(job, 2, 0, job.units[1]!.end));
    expect(stopped.started).toBe(true);
    expect(stopped.info).toMatchObject({ printedLines: 1, resumeOffset: job.units[1]!.end });
  });

  it('a resumed job is started whatever this attempt confirmed: an earlier one got content out', () => {
    const job = encoder.encode(layout, { openDrawer: true });
    expect(stoppedAt(progress(job, 0, job.units[0]!.end)).started).toBe(true);
  });
});
