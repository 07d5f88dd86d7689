import { once } from 'node:events';
import { createWriteStream, openSync, rmSync, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DataDirLock, DataDirLockedError } from '../adapters/data-dir-lock.js';
import { SqliteJournalIndex } from '../adapters/index/sqlite-journal-index.js';
import { openJournalReadOnly, type ReadOnlyJournal } from '../compose/open-journal.js';
import {
  addChduTargetOptions,
  type ChduCommandConfig,
  readChduCommandConfig,
} from '../config/chdu-config.js';
import { integerIn } from '../config/option-spec.js';
import { describeChduTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import { FiscalError } from '../core/fiscal-error.js';
import type { ChduJournal } from '../core/journal/chdu-journal.js';
import type { Chdu } from '../core/ports/chdu.js';
import { chduInfo } from '../core/services/chdu-info.js';
import { syncJournalIndex } from '../core/services/journal-sync.js';
import { registerAcceptRollback } from './chdu-accept-rollback.js';
import type { CliIo } from './program.js';

/** Where progress bars go: a terminal gets a bar, anything else only the summary line. */
export interface ProgressOutput {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
}

const recordNo = (text: string): number => integerIn(1, 0xffffffff, 'record number')(text);
const parser =
  <T>(f: (t: string) => T) =>
  (t: string): T => {
    try {
      return f(t);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };

/**
 * `kasa chdu info|verify|reindex|export`: the protected data storage and its index, with the same
 * `--data-dir` and `--chdu` flags as `kasa serve`. Only `reindex` writes (the index, never the
 * CHDÚ), so only it refuses while another process holds the data dir (ADR 0008 §13).
 */
export function registerChduCommands(
  program: Command,
  io: CliIo,
  progress: ProgressOutput = { stream: process.stderr },
): void {
  const chdu = program
    .command('chdu')
    .description('the protected data storage (CHDÚ): info, verify, reindex, export, accept-rollback');

  const info = chdu
    .command('info')
    .description('model, serials, capacity and use, journal head, index state');
  addChduTargetOptions(info);
  info.option('--json', 'print JSON instead of text');
  info.action(async (opts: { json?: boolean }, cmd: Command) => {
    const config = readChduCommandConfig(cmd, io.env, io.cwd);
    await withJournal(config, async (device, journal) => {
      const index = SqliteJournalIndex.openReadOnly(config.indexPath);
      try {
        const facts = await chduInfo({ chdu: device, journal, index });
        const holder = DataDirLock.holder(config.dataDir);
        if (opts.json) {
          io.stdout(`${JSON.stringify({ ...facts, inUseBy: holder ?? null }, null, 2)}\n`);
          return;
        }
        const lines: Array<[string, unknown]> = [
          ['model', facts.model],
          ['target', facts.target],
          ['serial', facts.serial],
          ['volume serial', facts.volumeSerial],
          ['firmware', facts.firmwareVersion],
          ['protocol', facts.protocolVersion],
          [
            'blocks',
            `${facts.usedBlocks} used, ${facts.freeBlocks} free of ${facts.capacityBlocks} (${facts.blockDataSize} B each)`,
          ],
          ['bytes', `${facts.usedBytes} used, ${facts.freeBytes} free of ${facts.capacityBytes}`],
          ['records', facts.recordCount],
          ['last write', facts.lastWriteAt ?? '-'],
          ...(facts.tornBytesAtOpen
            ? ([['torn tail', tornNote(facts.tornBytesAtOpen)]] as Array<[string, unknown]>)
            : []),
          ['storage', facts.storageOk ? 'OK' : 'NOT OK'],
          ['locked', facts.locked ? 'yes (read-only for ever)' : 'no'],
          ['index', `${facts.index.state} (record ${facts.index.highWaterMark})`],
          ['in use by', holder ? `kasa ${holder.command} (pid ${holder.pid})` : '-'],
        ];
        io.stdout(lines.map(([k, v]) => `${`${k}:`.padEnd(15)}${String(v)}\n`).join(''));
      } finally {
        index?.close();
      }
    });
  });

  const verify = chdu
    .command('verify')
    .description('check framing, CRCs and the hash chain of the whole journal');
  addChduTargetOptions(verify);
  verify.addOption(
    new Option('--from <record>', 'start at this record (default 1)').argParser(parser(recordNo)),
  );
  verify.action(async (opts: { from?: number }, cmd: Command) => {
    const config = readChduCommandConfig(cmd, io.env, io.cwd);
    await withJournal(config, async (device, journal) => {
      const started = Date.now();
      const bar = progressBar(progress, 'verify');
      const report = await journal
        .verify({
          ...(opts.from ? { fromRecordNo: opts.from } : {}),
          onProgress: (done, total) => advance(bar, done, total),
        })
        .finally(() => bar?.stop());
      const took = seconds(started);
      const fragments = report.fragments ? `, ${report.fragments} fragment(s) of failed writes skipped` : '';
      // ADR 0108: bytes after the last complete block are named, never silently dropped.
      const torn = device.tornBytesAtOpen ? `; ${tornNote(device.tornBytesAtOpen)}` : '';
      const headNo = journal.head()?.recordNo ?? 0;
      if (report.ok && report.records === 0 && opts.from !== undefined && opts.from > headNo) {
        // Like export: a start after the head is an empty range, not a broken journal.
        io.stdout(`verify: OK — 0 records: ${pastHead(opts.from, headNo)}${torn} (${took} s)\n`);
        return;
      }
      if (report.ok) {
        io.stdout(
          `verify: OK — ${report.records} records in ${report.blocks} blocks${fragments}, chain intact${torn} (${took} s)\n`,
        );
        return;
      }
      io.stdout(
        `verify: FAILED after ${report.records} good records — ${report.problem}${torn} (${took} s)\n`,
      );
      throw new Error('the journal does not verify');
    });
  });

  const reindex = chdu.command('reindex').description('rebuild <data-dir>/index.sqlite from the CHDÚ alone');
  addChduTargetOptions(reindex);
  reindex.action(async (_opts, cmd: Command) => {
    const config = readChduCommandConfig(cmd, io.env, io.cwd);
    let lock: DataDirLock;
    try {
      lock = DataDirLock.acquire(config.dataDir, 'chdu reindex');
    } catch (e) {
      if (e instanceof DataDirLockedError) throw new Error(`reindex refused: ${e.message}`);
      throw e;
    }
    try {
      await withJournal(config, async (_device, journal) => {
        const index = SqliteJournalIndex.open(config.indexPath);
        const known = index.highWaterMark();
        const headNo = journal.head()?.recordNo ?? 0;
        if (known > headNo) {
          // ADR 0108: the operator's decision to continue without records the index saw.
          io.stderr(
            `reindex: the index knew records up to ${known}; the CHDÚ ends at record ${headNo}, so records ${headNo + 1}–${known} are dropped and the next record is ${headNo + 1}\n`,
          );
        }
        const started = Date.now();
        const bar = progressBar(progress, 'reindex');
        try {
          const report = await syncJournalIndex(journal, index, {
            rebuild: true,
            onProgress: (done, total) => advance(bar, done, total),
          });
          bar?.stop();
          io.stdout(
            `reindex: ${report.applied} records indexed in ${seconds(started)} s (index at record ${report.highWaterMark})\n`,
          );
        } finally {
          bar?.stop();
          index.close();
        }
      });
    } finally {
      lock.release();
    }
  });

  const exportCmd = chdu.command('export').description('write every journal record in order');
  addChduTargetOptions(exportCmd);
  exportCmd.addOption(
    new Option('--format <format>', 'output format').choices(['jsonl']).makeOptionMandatory(true),
  );
  exportCmd.option('--output <file>', 'write to this file instead of standard output');
  exportCmd.addOption(
    new Option('--from <record>', 'start at this record (default 1)').argParser(parser(recordNo)),
  );
  exportCmd.action(async (opts: { output?: string; from?: number }, cmd: Command) => {
    const config = readChduCommandConfig(cmd, io.env, io.cwd);
    const path = opts.output === undefined ? undefined : resolve(io.cwd, opts.output);
    const file = path === undefined ? undefined : openExportFile(path, opts.output!);
    const out: NodeJS.WritableStream | undefined = file ?? io.stdoutStream;
    const where = opts.output ?? 'standard output';
    let failed: Error | undefined;
    let pipeClosed = false;
    // Left attached: a late EPIPE must not become an uncaught error with a stack trace.
    out?.on('error', (e: NodeJS.ErrnoException) => {
      // A reader that stops early (`kasa chdu export … | head`) closes the pipe: end quietly.
      if (!file && e.code === 'EPIPE') pipeClosed = true;
      else failed = e;
    });
    const write = async (line: string): Promise<void> => {
      if (!out) return io.stdout(line);
      // events.once removes its 'drain' and 'error' listeners whichever fires: nothing piles up
      // per wait (MaxListenersExceededWarning); the error itself is the listener's above.
      if (!failed && !pipeClosed && !out.write(line)) await once(out, 'drain').catch(() => undefined);
      if (pipeClosed) throw PIPE_CLOSED;
      if (failed) throw new Error(`cannot write ${where}: ${failed.message}`);
    };
    let n = 0;
    let past = '';
    try {
      await withJournal(config, async (_device, journal) => {
        for await (const r of journal.records(opts.from ?? 1)) {
          const { type, version, recordNo: no, address, writtenAt, chainHash, body } = r;
          await write(
            `${JSON.stringify({ recordNo: no, type, version, address, writtenAt, chainHash, body })}\n`,
          );
          n++;
        }
        // Like verify: a start after the head is an empty range (exit 0), said with the head.
        const headNo = journal.head()?.recordNo ?? 0;
        if (n === 0 && opts.from !== undefined && opts.from > headNo) {
          past = ` (${pastHead(opts.from, headNo)})`;
        }
      });
      if (file) await new Promise<void>((r) => file.end(() => r()));
      if (failed) throw new Error(`cannot write ${where}: ${failed.message}`);
    } catch (e) {
      if (e === PIPE_CLOSED) return; // exit 0, nothing more to say to a reader that left
      // The file is ours (created exclusively above): leave no partial export behind.
      file?.destroy();
      if (path !== undefined) rmSync(path, { force: true });
      throw e;
    }
    io.stderr(`export: ${n} records${opts.output ? ` to ${opts.output}` : ''}${past}\n`);
  });

  registerAcceptRollback(chdu, io);
}

/** The reader of standard output went away (EPIPE): the export stops, quietly. */
const PIPE_CLOSED = Symbol('standard output closed');

/**
 * The export file, created here and only if it does not exist: an export is never written over
 * (exit 2, one line). Opened before the CHDÚ is read, so a bad path fails at once.
 */
function openExportFile(path: string, given: string): WriteStream {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new UsageError(`--output ${given}: the file exists; an export never overwrites one`);
    throw new UsageError(`--output ${given}: cannot create it (${code ?? (e as Error).message})`);
  }
  return createWriteStream(path, { fd });
}

/** `--from` after the journal's head: nothing to read, said with the head's number. */
function pastHead(from: number, headNo: number): string {
  return headNo === 0
    ? `the journal is empty; --from ${from} is past its end`
    : `the journal ends at record ${headNo}; --from ${from} is past it`;
}

function tornNote(bytes: number): string {
  return `${bytes} bytes after the last complete block are not a block (a write torn by a crash, or a damaged last block)`;
}

/** Opens the CHDÚ without writing to it and the journal on it; FiscalErrors become one clear line. */
async function withJournal(
  config: ChduCommandConfig,
  work: (chdu: Chdu, journal: ChduJournal) => Promise<void>,
): Promise<void> {
  let opened: ReadOnlyJournal | undefined;
  try {
    opened = await openJournalReadOnly(config.chdu);
    await work(opened.chdu, opened.journal);
  } catch (e) {
    if (FiscalError.is(e)) {
      const holder = e.resultCode === 200 ? DataDirLock.holder(config.dataDir) : undefined;
      const hint = holder ? `; it is in use by kasa ${holder.command} (pid ${holder.pid})` : '';
      throw new Error(
        `${describeChduTarget(config.chdu)}: ${e.resultCode} ${e.resultName}: ${e.message}${hint}`,
      );
    }
    throw e;
  } finally {
    await opened?.close().catch(() => undefined);
  }
}

function progressBar(progress: ProgressOutput, label: string): SingleBar | undefined {
  if (!progress.stream.isTTY) return undefined;
  const bar = new SingleBar({
    stream: progress.stream,
    format: `${label} [{bar}] {percentage}% {value}/{total} | ETA {eta}s`,
    hideCursor: true,
    clearOnComplete: true,
  });
  bar.start(1, 0);
  return bar;
}

function advance(bar: SingleBar | undefined, done: number, total: number): void {
  if (!bar) return;
  if (bar.getTotal() !== total) bar.setTotal(total);
  bar.update(done);
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}
