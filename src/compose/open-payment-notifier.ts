import { join } from 'node:path';
import { MAX_PEM_FILE_BYTES, PathRefused, readRegularFileSync } from '../adapters/checked-paths.js';
import { DEMO_CA_DIR } from '../adapters/merchant/test-merchant.js';
import { loadClientIdSuffix } from '../adapters/nop/nop-client-id.js';
import { type NopEndpoints, OFFICIAL_NOP_ENDPOINTS } from '../adapters/nop/nop-endpoints.js';
import { NopPaymentNotifier } from '../adapters/nop/nop-payment-notifier.js';
import type { ServeConfig } from '../config/serve-config.js';
import { UsageError } from '../config/usage-error.js';
import type { Clock } from '../core/ports/clock.js';
import type { PaymentNotifier } from '../core/ports/payment-notifier.js';
import type { NopEnvironment } from '../core/qr-payments/qr-payment-settings.js';
import { NopSimulator } from '../simulators/nop/nop-simulator.js';

/** NOP as this process reaches it (ADR 0904). */
export interface NopConnection {
  /** The notifier for an environment; undefined for `off`. */
  forEnvironment(env: NopEnvironment): { notifier: PaymentNotifier; environment: string } | undefined;
  /** The embedded simulator (demo mode): tests and the demo "pay" through it. */
  simulator?: NopSimulator;
  /** True when the demo defaults of the QR payment settings apply (embedded simulator). */
  demoDefaults: boolean;
  describe(env: NopEnvironment): string;
  close(): Promise<void>;
}

/**
 * Picks where NOP is, once at start: `--nop-url` (+ `--nop-mqtt-url`, `--nop-trust`) for a
 * `kasa nop-sim` or moved hosts; else in demo mode the embedded simulator on loopback, which trusts
 * the demo CA of `<data-dir>/demo-ca` and whose server certificate kasa trusts; else the FS hosts
 * of the environment the settings name. A bad flag is refused before anything is written.
 */
export async function openPaymentNotifier(
  config: ServeConfig,
  demo: boolean,
  clock: Clock,
): Promise<NopConnection> {
  if (config.nopMqttUrl !== undefined && config.nopUrl === undefined) {
    throw new UsageError('--nop-mqtt-url needs --nop-url (the ERP API of the same NOP)');
  }
  if (config.nopTrust !== undefined && config.nopUrl === undefined) {
    throw new UsageError('--nop-trust needs --nop-url (the official hosts use the system CAs)');
  }
  // ADR 0908: one MQTT client id per installation, kept in the data dir (read once flags are good).
  let suffix: string | undefined;
  const session = () => {
    suffix ??= loadClientIdSuffix(config.dataDir);
    return { clientIdSuffix: suffix };
  };
  if (config.nopUrl !== undefined) {
    if (config.nopMqttUrl === undefined) {
      throw new UsageError('--nop-url needs --nop-mqtt-url (mqtts://HOST:PORT of the same NOP)');
    }
    let serverCaPem: string | undefined;
    if (config.nopTrust !== undefined) {
      try {
        serverCaPem = readRegularFileSync(config.nopTrust, MAX_PEM_FILE_BYTES, 'a PEM file').toString('utf8');
      } catch (e) {
        if (e instanceof PathRefused) throw new UsageError(`--nop-trust ${e.message}`);
        throw new UsageError(`--nop-trust ${config.nopTrust} cannot be read: ${(e as Error).message}`);
      }
      if (!serverCaPem.includes('-----BEGIN CERTIFICATE-----')) {
        throw new UsageError(`--nop-trust ${config.nopTrust} holds no PEM certificate`);
      }
    }
    const endpoints: NopEndpoints = {
      erpUrl: config.nopUrl,
      mqttUrl: config.nopMqttUrl,
      label: 'custom',
      ...(serverCaPem === undefined ? {} : { serverCaPem }),
    };
    return single(new NopPaymentNotifier(endpoints, session()), endpoints, false);
  }
  if (demo) {
    const simulator = await NopSimulator.start({ caDir: join(config.dataDir, DEMO_CA_DIR), clock });
    const endpoints: NopEndpoints = {
      erpUrl: simulator.erpUrl,
      mqttUrl: simulator.mqttUrl,
      serverCaPem: simulator.caCertPem,
      label: 'sim',
    };
    const connection = single(new NopPaymentNotifier(endpoints, session()), endpoints, true);
    return {
      ...connection,
      simulator,
      describe: (env) =>
        env === 'off'
          ? 'off'
          : `embedded NOP simulator ${simulator.erpUrl} (pay at ${simulator.controlUrl}/__sim/pay)`,
      async close() {
        await connection.close();
        await simulator.close();
      },
    };
  }
  const official = new Map<NopEnvironment, NopPaymentNotifier>();
  return {
    demoDefaults: false,
    forEnvironment(env) {
      if (env === 'off') return undefined;
      let notifier = official.get(env);
      if (!notifier) {
        notifier = new NopPaymentNotifier(OFFICIAL_NOP_ENDPOINTS[env], session());
        official.set(env, notifier);
      }
      return { notifier, environment: env };
    },
    describe: (env) => (env === 'off' ? 'off' : `${env} ${OFFICIAL_NOP_ENDPOINTS[env].erpUrl}`),
    async close() {
      await Promise.all([...official.values()].map((n) => n.close()));
    },
  };
}

function single(notifier: NopPaymentNotifier, endpoints: NopEndpoints, demoDefaults: boolean): NopConnection {
  return {
    demoDefaults,
    forEnvironment: (env) => (env === 'off' ? undefined : { notifier, environment: endpoints.label }),
    describe: (env) => (env === 'off' ? 'off' : `${endpoints.label} ${endpoints.erpUrl}`),
    close: () => notifier.close(),
  };
}
