import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CA_CERT_FILE } from '../adapters/pki/test-ca.js';
import { NopSimulator } from '../simulators/nop/nop-simulator.js';
import { portOption } from './port-option.js';
import type { CliIo } from './program.js';

export interface NopSimCommandHooks {
  /** Called with the running simulator and a function that stops it (tests). */
  onStarted?: (simulator: NopSimulator, stop: () => void) => void;
}

/**
 * `kasa nop-sim --ca-dir CA [--erp-port P] [--mqtt-port Q] [--control-port R]`: the NOP simulator
 * on loopback (docs/qr-payments.md). The CA is the one `kasa merchant new --ca-dir CA` issues
 * register certificates from. Prints the three URLs and the `kasa serve` flags that reach it, and
 * runs until SIGINT/SIGTERM.
 */
export function registerNopSimCommand(program: Command, io: CliIo, hooks: NopSimCommandHooks = {}): void {
  program
    .command('nop-sim')
    .description(
      'run the NOP simulator (QR payment notifier): mTLS HTTPS API, MQTT TLS broker, control API under /__sim/',
    )
    .requiredOption('--ca-dir <dir>', 'test CA folder (the one kasa merchant new uses), created on first use')
    .option('--erp-port <port>', 'HTTPS ERP + bank API port (0 = any free port)', portOption, 0)
    .option('--mqtt-port <port>', 'MQTT over TLS port (0 = any free port)', portOption, 0)
    .option(
      '--control-port <port>',
      'plain-HTTP control API port on loopback (0 = any free port)',
      portOption,
      0,
    )
    .action(async (options: { caDir: string; erpPort: number; mqttPort: number; controlPort: number }) => {
      const caDir = resolve(io.cwd, options.caDir);
      let simulator: NopSimulator;
      try {
        simulator = await NopSimulator.start({
          caDir,
          ports: { erp: options.erpPort, mqtt: options.mqttPort, control: options.controlPort },
          log: (line) => io.stderr(`${line}\n`),
        });
      } catch (e) {
        throw new Error(`nop-sim cannot start: ${(e as Error).message}`);
      }
      const trust = resolve(caDir, CA_CERT_FILE);
      io.stdout(
        [
          `NOP simulator: ERP and bank API ${simulator.erpUrl}, MQTT ${simulator.mqttUrl}`,
          `control API and public history: ${simulator.controlUrl}/__sim/ (docs/qr-payments.md)`,
          `  use it with: kasa serve --nop-env int --nop-url ${simulator.erpUrl} --nop-mqtt-url ${simulator.mqttUrl} --nop-trust ${trust}`,
          `    and the account the QR names: --nop-iban <IBAN> --nop-creditor-name <name> (the simulator takes any valid IBAN)`,
          `  registers need certificates of this CA: kasa merchant new --ca-dir ${caDir} …`,
          `  pay a QR: curl -s ${simulator.controlUrl}/__sim/pay -H 'Content-Type: application/json' -d '{"payme":"<the link in the QR>"}'`,
          '',
        ].join('\n'),
      );
      await new Promise<void>((done) => {
        const keepAlive = setInterval(() => undefined, 1 << 30);
        const stop = (): void => {
          clearInterval(keepAlive);
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          simulator.close().then(done, done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        hooks.onStarted?.(simulator, stop);
      });
    });
}
