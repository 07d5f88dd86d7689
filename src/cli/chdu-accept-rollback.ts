import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SqliteJournalIndex } from '../adapters/index/sqlite-journal-index.js';
import { FileHighWaterMarkStore } from '../adapters/state/file-high-water-mark-store.js';
import { openJournalReadOnly } from '../compose/open-journal.js';
import { addChduTargetOptions, readChduCommandConfig } from '../config/chdu-config.js';
import { addOption, readOption } from '../config/option-spec.js';
import { defaultMarkDir, markDirSpec } from '../config/serve-config.js';
import { describeChduTarget } from '../config/targets.js';
import { FiscalError } from '../core/fiscal-error.js';
import { systemClock } from '../core/ports/clock.js';
import { acceptRollback } from '../core/services/rollback-guard.js';
import type { CliIo } from './program.js';

/**
 * `kasa chdu accept-rollback`: the operator's override of the rollback refusal (ADR 0118). It
 * reads the CHDÚ without writing to it and rewrites only its high-water mark (outside the data
 * dir), saying which document numbers will be issued again. A running `kasa serve` picks the new
 * mark up at its next consistency check.
 */
export function registerAcceptRollback(chdu: Command, io: CliIo): void {
  const cmd = chdu
    .command('accept-rollback')
    .description(
      'continue on purpose from a CHDÚ older than its high-water mark (its later document numbers are issued again)',
    );
  addChduTargetOptions(cmd);
  addOption(cmd, markDirSpec);
  cmd.action(async (_opts, command: Command) => {
    const config = readChduCommandConfig(command, io.env, io.cwd);
    const given = readOption(command, markDirSpec, io.env).value as string | undefined;
    const store = new FileHighWaterMarkStore(resolve(io.cwd, given ?? defaultMarkDir(io.env)));
    let opened: Awaited<ReturnType<typeof openJournalReadOnly>> | undefined;
    try {
      opened = await openJournalReadOnly(config.chdu);
      const { chdu, journal } = opened;
      const index = SqliteJournalIndex.openReadOnly(config.indexPath);
      let last: string | undefined;
      try {
        // Only an index at the CHDÚ's head names its last document correctly.
        if (index && index.highWaterMark() === (journal.head()?.recordNo ?? 0)) {
          last = index.findDocument({ by: 'last' })?.document.documentNumber;
        }
      } finally {
        index?.close();
      }
      const report = await acceptRollback({
        chdu,
        journal,
        lastDocumentNumber: last,
        store,
        now: systemClock.now(),
      });
      const before = report.before;
      const marked = before
        ? `record ${before.recordNo}${before.lastDocument ? ` (document ${before.lastDocument.documentNumber})` : ''}, marked ${before.markedAt}`
        : undefined;
      const head = journal.head()?.recordNo ?? 0;
      const now = `record ${head}${last ? ` (document ${last})` : ''}`;
      switch (report.verdict) {
        case 'ok':
          io.stdout(
            `accept-rollback: nothing to accept — the CHDÚ (${now}) is at or after its mark (${marked}); ${report.where} unchanged\n`,
          );
          return;
        case 'none':
        case 'unreadable':
          io.stdout(
            `accept-rollback: ${report.verdict === 'none' ? 'no mark' : 'an unreadable mark'} for this CHDÚ; wrote one at ${now}: ${report.where}\n`,
          );
          return;
        default:
          io.stdout(
            `accept-rollback: the mark said ${marked}; the CHDÚ ${report.verdict === 'behind' ? 'ends at' : 'differs there and is at'} ${now}. Accepted: the mark now says ${now}${last ? `, and the document numbers after ${last} will be issued again` : ''}. ${report.where}\n`,
          );
      }
    } catch (e) {
      if (FiscalError.is(e)) {
        throw new Error(`${describeChduTarget(config.chdu)}: ${e.resultCode} ${e.resultName}: ${e.message}`);
      }
      throw e;
    } finally {
      await opened?.close().catch(() => undefined);
    }
  });
}
