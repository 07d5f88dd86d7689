import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/option-spec.js';
import { UsageError } from '../config/usage-error.js';
import { registerBackupCommands } from './backup-commands.js';
import { registerChduCommands } from './chdu-commands.js';
import { registerChduSimCommand } from './chdu-sim-command.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit.js';
import { registerMerchantCommands } from './merchant-commands.js';
import { registerNopSimCommand } from './nop-sim-command.js';
import { registerPrinterSimCommand } from './printer-sim-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerSfsSimCommand } from './sfs-sim-command.js';

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** Standard output as a stream, for bulk output with back-pressure and a closed pipe (export). */
  stdoutStream?: NodeJS.WritableStream;
}

export const defaultIo = (): CliIo => ({
  env: process.env,
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  stdoutStream: process.stdout,
});

/** The `kasa` command line: every command and flag is a public contract (capability 2). */
export function buildProgram(io: CliIo, version: string): Command {
  const program = new Command('kasa')
    .description('kasa: local fiscal cash-register service for the Slovak eKasa system (API v1.7)')
    .version(version, '-V, --version')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
  registerServeCommand(program, io, version);
  registerMerchantCommands(program, io);
  registerChduCommands(program, io);
  registerChduSimCommand(program, io);
  registerSfsSimCommand(program, io);
  registerBackupCommands(program, io, version);
  registerNopSimCommand(program, io);
  registerPrinterSimCommand(program, io);
  const applyToAll = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
    cmd.commands.forEach(applyToAll);
  };
  applyToAll(program);
  return program;
}

/**
 * Runs the CLI and resolves with the exit code. Long-running commands (serve, simulators) resolve
 * only when they stop.
 */
export async function runCli(argv: readonly string[], io: CliIo, version: string): Promise<number> {
  const program = buildProgram(io, version);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      ) {
        return EXIT_OK;
      }
      // commander already printed its one-line message
      return EXIT_USAGE;
    }
    if (e instanceof UsageError || e instanceof ConfigError) {
      io.stderr(`kasa: ${e.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr(`kasa: ${(e as Error).message ?? String(e)}\n`);
    return EXIT_FAILURE;
  }
}
