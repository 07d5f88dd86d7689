import type { PartialPrintInfo } from '../../core/ports/receipt-printer.js';
import type { EscPosJob, PrintUnit } from './escpos-encoder.js';

/**
 * A unit written in this attempt: its end in the job and the end of its bytes on the line. Line
 * offsets count print data only — what takes room in the printer's receive buffer — never the
 * confirmation requests between units (DLE EOT is answered on arrival, not buffered), so that
 * `bufferBytes` back on this scale is a whole buffer back on the printer (ADR 0507, 0517).
 */
export interface SentUnit {
  end: number;
  lineEnd: number;
}

/** How far a job got when it stopped (ADR 0507). */
export interface JobProgress {
  job: EscPosJob;
  jobSha256: string;
  /** Job offset this attempt started at (0, or the resume point of an earlier attempt). */
  from: number;
  /** Units written in this attempt, in order. */
  sent: readonly SentUnit[];
  /** Line offset (print data) up to which the printer confirmed arrival (an answered DLE EOT after it). */
  arrivedLine: number;
  /** Job offset up to which the printer confirmed printing (process ID), when it can. */
  printedEnd?: number;
  /**
   * The printer's receive buffer: bytes that arrived within this distance of the newest
   * confirmed byte may still be unprinted, and a power cut loses them.
   */
  bufferBytes: number;
}

export interface StoppedJob {
  /**
   * Receipt content of the job may be on paper: a unit holding some (a line, a picture, a code —
   * what `printedLines` counts) was confirmed, or an earlier attempt got that far. A failure then
   * carries `partialPrint` and printing again resumes. The first unit alone (ESC @, the drawer
   * kick, font, code page) prints nothing and does not start a job (ADR 0507 as amended).
   */
  started: boolean;
  /** All of the job is on paper for certain: nothing to resume. */
  complete: boolean;
  info: PartialPrintInfo;
}

/**
 * Where printing the same job again must start so that no line is missing (ADR 0507). A DLE EOT
 * answer proves only that bytes ARRIVED; a printer holds up to `bufferBytes` received but
 * unprinted, and loses them when switched off. So without a process-ID confirmation the job
 * resumes at the end of the last unit that lies a whole receive buffer before the newest
 * confirmed byte: lines may be printed twice, never lost. With one (`printedEnd`), exactly there.
 * A resumed print sends the prelude (ESC @, font, code page) and never the first unit again. The
 * job is started once a unit with receipt content was handed to the line, answered or not (it may
 * be on paper): the first unit holds none, and its drawer kick is remembered apart from this (ADR
 * 0517), so a job that failed before any content went out is printed whole again, without the
 * kick, and its document is not handed over.
 */
export function stoppedAt(p: JobProgress): StoppedJob {
  const units = p.job.units;
  const initEnd = units[0]?.end ?? 0;
  let arrivedEnd = p.from;
  let surely = p.from;
  for (const u of p.sent) {
    if (u.lineEnd > p.arrivedLine) break;
    arrivedEnd = u.end;
    if (u.lineEnd <= p.arrivedLine - p.bufferBytes) surely = u.end;
  }
  if (p.printedEnd !== undefined) surely = Math.max(p.from, Math.min(p.printedEnd, arrivedEnd));
  // What was handed to the line whole, answered or not: a printer that stays on prints it even
  // when the line drops before its answer comes back.
  const writtenEnd = Math.max(arrivedEnd, p.sent.at(-1)?.end ?? p.from);
  // A resumed job (`from` > 0) was started by an earlier attempt; otherwise a unit of receipt
  // content handed to the line may be on paper, so the job counts as started (the safe side: the
  // document is then treated as handed over, ADR 0712).
  const started = p.from > 0 || units.some((u) => content(u) && u.end <= writtenEnd);
  // A started job never resumes before its first content: the first unit (ESC @, the kick) went
  // out with it, and the prelude of the resumed print does its reset.
  const resumeOffset = arrivedEnd >= initEnd || started ? Math.max(surely, initEnd) : surely;
  const onPaper = units.filter((u) => u.end <= resumeOffset);
  const last = [...onPaper].reverse().find((u) => u.text !== undefined && u.text !== '');
  const unconfirmed = units.filter((u) => content(u) && u.end > resumeOffset && u.end <= arrivedEnd).length;
  return {
    started,
    complete: resumeOffset >= p.job.bytes.length,
    info: {
      totalBytes: p.job.bytes.length,
      resumeOffset,
      printedLines: onPaper.filter(content).length,
      ...(unconfirmed > 0 ? { unconfirmedLines: unconfirmed } : {}),
      ...(last?.text === undefined ? {} : { lastPrintedLine: last.text }),
      jobSha256: p.jobSha256,
    },
  };
}

/** A unit that puts receipt content on paper — what `printedLines` counts; not ESC @ or a cut. */
function content(u: PrintUnit): boolean {
  return u.kind !== 'init' && u.kind !== 'cut';
}

/**
 * The jobs (SHA-256 of their bytes) whose drawer kick went out: printed again — whole, after
 * another job came in between, or after a failure that left nothing confirmed — they are encoded
 * without the kick, so a drawer opens at most once per receipt (ADR 0507, 0517). A kick goes out
 * once the unit holding it is handed to the line, answered or not. Bounded: the newest 16.
 */
export class SentKicks {
  private readonly shas: string[] = [];

  has(sha: string): boolean {
    return this.shas.includes(sha);
  }

  add(sha: string): void {
    if (this.shas.includes(sha)) return;
    this.shas.push(sha);
    if (this.shas.length > 16) this.shas.shift();
  }
}
