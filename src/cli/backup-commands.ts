import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { FileBackupLog } from '../adapters/backup/file-backup-log.js';
import {
  checkBackupSource,
  RestoreRefusedError,
  type RestoreSummary,
  restoreBackup,
} from '../adapters/backup/restore-backup.js';
import { checkBackupTarget, takeBackup } from '../adapters/backup/take-backup.js';
import { addChduTargetOptions, readChduCommandConfig } from '../config/chdu-config.js';
import { addOption, readOption } from '../config/option-spec.js';
import { defaultMarkDir, markDirSpec } from '../config/serve-config.js';
import { describeChduTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import { FiscalError } from '../core/fiscal-error.js';
import type { CliIo } from './program.js';

/**
 * `kasa backup --to FILE` and `kasa restore --from FILE` (capability 14, ADR 0804), with the same
 * `--data-dir` and `--chdu` flags as `kasa serve`. Both work on an image CHDÚ; a CHDU Lite keeps
 * the fiscal memory on the device (docs/backup.md).
 */
export function registerBackupCommands(program: Command, io: CliIo, version: string): void {
  const backup = program
    .command('backup')
    .description(
      'write a verified copy of the register (CHDÚ image, sealed secrets, merchant files) while it runs',
    );
  addChduTargetOptions(backup);
  addOption(backup, markDirSpec);
  backup.addOption(new Option('--to <file>', 'the backup file to write (.tar.gz)').makeOptionMandatory(true));
  backup.option('--force', 'replace an existing backup file (only once the new one is complete)');
  backup.action(async (opts: { to: string; force?: boolean }, cmd: Command) => {
    const config = readChduCommandConfig(cmd, io.env, io.cwd);
    const imagePath = imageOf(config.chdu, 'backup');
    const target = resolve(io.cwd, opts.to);
    const problem = checkBackupTarget(target, config.dataDir, opts.force === true);
    if (problem) throw new UsageError(`--to ${opts.to}: ${problem}`);
    const started = Date.now();
    const summary = await takeBackup({
      dataDir: config.dataDir,
      imagePath,
      target,
      replace: opts.force === true,
      kasaVersion: version,
      log: new FileBackupLog(config.dataDir),
      markDir: markDirOf(cmd, io),
    }).catch(oneLine);
    io.stdout(
      `backup: OK — up to record ${summary.point.recordNo}, chain intact; ${summary.blocks} blocks and ${summary.files.length} files in ${summary.bytes} bytes to ${summary.file} (${seconds(started)} s)\n`,
    );
  });

  const restore = program
    .command('restore')
    .description('put a backup back into a data dir, after checking its sums and its whole chain');
  addChduTargetOptions(restore);
  addOption(restore, markDirSpec);
  restore.addOption(new Option('--from <file>', 'the backup file').makeOptionMandatory(true));
  restore.option('--check', 'only check the backup (sums, chain); write nothing');
  restore.action(async (opts: { from: string; check?: boolean }, cmd: Command) => {
    const started = Date.now();
    const archive = resolve(io.cwd, opts.from);
    // A wrong --from is a usage error (exit 2), found before a data dir is created or locked.
    const unusable = checkBackupSource(archive);
    if (unusable) throw new UsageError(unusable);
    if (opts.check) {
      // Checking a backup reads only the file: no data dir is needed.
      const result = await restoreBackup({ archive, dataDir: '', imagePath: '', checkOnly: true }).catch(
        oneLine,
      );
      io.stdout(`restore --check: OK — ${opts.from}: ${describe(result)} (${seconds(started)} s)\n`);
      return;
    }
    const config = readChduCommandConfig(cmd, io.env, io.cwd);
    const imagePath = imageOf(config.chdu, 'restore');
    const markDir = markDirOf(cmd, io);
    const result = await restoreBackup({
      archive,
      dataDir: config.dataDir,
      imagePath,
      markDir,
    }).catch(oneLine);
    const m = result.manifest;
    const what = describe(result);
    if (result.replaced) io.stderr(`restore: the older image was kept as ${result.replaced}\n`);
    if (result.markAhead) io.stderr(`${markWarning(result)}\n`);
    io.stdout(
      `restore: OK — ${what}; ${m.files.length} files into ${config.dataDir} (${seconds(started)} s).\n${startHint(config.dataDir, markDir, imagePath)}\n`,
    );
  });
}

/**
 * The next step after a restore, for both ways a register runs: the systemd service starts with
 * its own data and mark dirs (packaging/kasa.service), so `systemctl start kasa`; by hand,
 * `kasa serve` with the dirs this restore used — another mark dir would not know the register's
 * marks (ADR 0804), another image path would start a new CHDÚ.
 */
function startHint(dataDir: string, markDir: string, imagePath: string): string {
  const chdu = imagePath === resolve(dataDir, 'chdu.img') ? '' : ` --chdu ${shellWord(`image:${imagePath}`)}`;
  return `Start it: the service with \`sudo systemctl start kasa\` (docs/backup.md); by hand with \`kasa serve --data-dir ${shellWord(dataDir)} --mark-dir ${shellWord(markDir)}${chdu}\``;
}

/** `text` as one word of a POSIX shell command line (quoted only when it must be). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `--mark-dir` / `KASA_MARK_DIR` as `kasa serve` reads it (ADR 0118). */
function markDirOf(cmd: Command, io: CliIo): string {
  const given = readOption(cmd, markDirSpec, io.env).value as string | undefined;
  return resolve(io.cwd, given ?? defaultMarkDir(io.env));
}

/** ADR 0804: the register went on after the backup; say what serve will do and the way out. */
function markWarning(r: RestoreSummary): string {
  const ahead = r.markAhead!;
  const point = `record ${r.manifest.point.recordNo}`;
  const tail = `kasa serve refuses fiscal writes (201) until you run \`kasa chdu accept-rollback\`; do that only when no newer copy of this register exists anywhere, because the document numbers after the backup will then be issued again (${ahead.where}).`;
  if (ahead.verdict.ok) return '';
  if (ahead.verdict.kind === 'unreadable') {
    return `restore: WARNING — this computer's rollback mark of this CHDÚ cannot be read (${ahead.verdict.problem}): ${tail}`;
  }
  const mark = ahead.mark!;
  const reached = `record ${mark.recordNo}${mark.lastDocument ? ` (document ${mark.lastDocument.documentNumber})` : ''} on ${mark.markedAt}`;
  const what =
    ahead.verdict.kind === 'behind'
      ? `but the backup ends at ${point}: documents issued after the backup are not in it`
      : `but the backup (up to ${point}) holds another record there: it is a copy that was written on elsewhere`;
  return `restore: WARNING — this computer saw this register reach ${reached}, ${what}. ${tail}`;
}

function imageOf(target: ReturnType<typeof readChduCommandConfig>['chdu'], command: string): string {
  if (target.kind === 'image') return target.path;
  throw new UsageError(
    `--chdu ${describeChduTarget(target)}: kasa ${command} works on an image CHDÚ; a CHDU Lite keeps the fiscal memory on the device (docs/backup.md)`,
  );
}

/** Refusals and CHDÚ errors become one line (exit 1). */
function oneLine(e: unknown): never {
  if (e instanceof RestoreRefusedError) throw new Error(e.message);
  if (FiscalError.is(e)) throw new Error(`${e.resultCode} ${e.resultName}: ${e.message}`);
  throw e;
}

function describe(r: RestoreSummary): string {
  const m = r.manifest;
  return `record ${m.point.recordNo}, ${r.records} records, chain intact; taken ${m.createdAt} by kasa ${m.kasaVersion}`;
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}
