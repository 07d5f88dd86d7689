import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { STORED_SETTINGS } from '../core/settings/stored-settings.js';
import { type DataDirSource, DEFAULT_DATA_DIR_TEXT, readDataDir } from './data-dir.js';
import {
  addOption,
  booleanText,
  ConfigError,
  integerIn,
  nonEmpty,
  type OptionSpec,
  readEnv,
  readOption,
  type Source,
} from './option-spec.js';
import { type ChduTarget, type PrinterTarget, parseChduTarget, parsePrinterTarget } from './targets.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The configuration of `kasa serve`, parsed once and frozen. */
export interface ServeConfig {
  readonly host: string;
  readonly port: number;
  /** Absolute path of all state of this register. */
  readonly dataDir: string;
  /** Where `dataDir` came from (`default`: the per-user XDG place, ADR 0802). */
  readonly dataDirSource?: DataDirSource;
  /** SFS SOAP endpoint; undefined = the embedded SFS simulator. */
  readonly sfsUrl: string | undefined;
  /** PEM files trusted for SFS response signatures; empty = the embedded simulator's certificate. */
  readonly sfsTrust: readonly string[];
  /** The online limit; past it the document is issued offline. */
  readonly sfsTimeoutMs: number;
  readonly printer: PrinterTarget;
  readonly chdu: ChduTarget;
  /** Folder of the CHDÚ high-water marks, outside the data dir (rollback detection, ADR 0118). */
  readonly markDir: string;
  /** Create a demo merchant on an empty data dir. */
  readonly demo: boolean;
  /**
   * `--sfs-sim`: the embedded SFS simulator is wanted even though `--no-demo`, or a `--chdu` naming
   * a CHDU Lite device, says this is a real register; without it, such a `kasa serve` with no SFS
   * URL refuses to start (exit 2).
   */
  readonly sfsSim: boolean;
  /** When set, every /api/ request needs `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
  readonly logLevel: LogLevel;
  /** NOP environment fixed by `--nop-env` (else the `nopEnvironment` setting, ADR 0903). */
  readonly nopEnv: 'off' | 'int' | 'prod' | undefined;
  /** NOP ERP API base and MQTT broker replacing the environment's hosts (`kasa nop-sim`, ADR 0904). */
  readonly nopUrl: string | undefined;
  readonly nopMqttUrl: string | undefined;
  /** PEM file with the CA of NOP's server certificates (with `--nop-url`); default the system CAs. */
  readonly nopTrust: string | undefined;
  /** `--nop-iban`: the notification account, normalised and mod-97 checked; fixes `nopIban` (ADR 0903). */
  readonly nopIban: string | undefined;
  /** `--nop-creditor-name`: the name in the QR, folded to the Payme characters; fixes `nopCreditorName`. */
  readonly nopCreditorName: string | undefined;
  /** `--sw-id`: the SwId the certification assigned (40 hex, as given); undefined = derived (ADR 0421). */
  readonly swId: string | undefined;
  /** Keys given explicitly by flag or environment: fixed for the process lifetime (ADR 0008 §2). */
  readonly fixed: ReadonlySet<ServeKey>;
  /**
   * For each fixed key, what gave it: the flag (`--printer`) or the variable (`KASA_PRINTER`), so
   * the settings can say why a key cannot be changed (ADR 1001). Absent in composed configs.
   */
  readonly fixedBy?: ReadonlyMap<ServeKey, string>;
}

export type ServeKey = Exclude<keyof ServeConfig, 'fixed' | 'fixedBy' | 'dataDirSource'>;

const url = (text: string): string => {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Error('must be an absolute http:// or https:// URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error('must be an http:// or https:// URL');
  return u.toString();
};

const host = (text: string): string => {
  if (!/^[A-Za-z0-9.:-]+$/.test(text)) throw new Error('host must be an IP address or a host name');
  return text;
};

const logLevel = (text: string): LogLevel => {
  if (!(LOG_LEVELS as readonly string[]).includes(text))
    throw new Error(`log level must be one of ${LOG_LEVELS.join(', ')}`);
  return text as LogLevel;
};

const token = (text: string): string => {
  if (!/^[\x21-\x7e]{8,200}$/.test(text))
    throw new Error('token must be 8-200 printable ASCII characters, no spaces');
  return text;
};

const nopEnv = (text: string): 'off' | 'int' | 'prod' => {
  if (text !== 'off' && text !== 'int' && text !== 'prod') throw new Error('must be off, int or prod');
  return text;
};

const mqttUrl = (text: string): string => {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Error('must be an absolute mqtts:// URL');
  }
  if (u.protocol !== 'mqtts:') throw new Error('must be an mqtts:// URL (MQTT over TLS)');
  return u.toString();
};

/** ADR 0901/0903: the stored setting's own rule (ISO 13616 shape and mod-97), spaces allowed. */
const nopIban = (text: string): string => {
  const iban = STORED_SETTINGS.nopIban.parse(text);
  if (iban === undefined)
    throw new Error(
      'must be an IBAN (two letters, two check digits, the account) that passes the mod-97 check',
    );
  return iban;
};

/** ADR 0902/0903: the stored setting's own rule (folded to the Payme characters, 1-70 of them). */
const nopCreditorName = (text: string): string => {
  const name = STORED_SETTINGS.nopCreditorName.parse(text);
  if (name === undefined) throw new Error('must be 1-70 characters once folded to the Payme character set');
  return name;
};

/**
 * SFS spec §2.3: the SwId is 40 hexadecimal digits (SHA-1). Validated only, then sent exactly as the
 * certification gave it (ADR 0421): the official SFS samples carry it in lower case.
 */
const swId = (text: string): string => {
  if (!/^[0-9a-fA-F]{40}$/.test(text)) throw new Error('SwId must be exactly 40 hexadecimal digits');
  return text;
};

const wrap =
  <T>(f: (t: string) => T) =>
  (t: string): T => {
    try {
      return f(t);
    } catch (e) {
      throw new Error((e as Error).message);
    }
  };

export const dataDirSpec: OptionSpec<string> = {
  key: 'dataDir',
  flags: '--data-dir <path>',
  description: 'folder holding all state of this register',
  env: 'KASA_DATA_DIR',
  parse: nonEmpty('data dir'),
  defaultText: DEFAULT_DATA_DIR_TEXT,
};

export const chduSpec: OptionSpec<ChduTarget> = {
  key: 'chdu',
  flags: '--chdu <target>',
  description:
    'protected data storage: image:PATH[?capacity=N], chdu-lite+tcp://HOST:PORT or chdu-lite+serial:///dev/X',
  env: 'KASA_CHDU',
  parse: wrap(parseChduTarget),
  defaultText: 'image:<data-dir>/chdu.img',
};

/**
 * ADR 0118: the default home of the high-water marks, outside any data dir —
 * `$XDG_STATE_HOME/kasa/marks`, else `~/.local/state/kasa/marks` (XDG Base Directory spec).
 */
export function defaultMarkDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const state = env.XDG_STATE_HOME;
  const base = state && isAbsolute(state) ? state : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'kasa', 'marks');
}

export const markDirSpec: OptionSpec<string> = {
  key: 'markDir',
  flags: '--mark-dir <path>',
  description: 'folder of the CHDÚ high-water marks (rollback detection), outside the data dir',
  env: 'KASA_MARK_DIR',
  parse: nonEmpty('mark dir'),
  defaultText: '$XDG_STATE_HOME/kasa/marks or ~/.local/state/kasa/marks',
};

const specs = {
  host: {
    key: 'host',
    flags: '--host <address>',
    description: 'listen address',
    env: 'KASA_HOST',
    parse: host,
    defaultText: '127.0.0.1',
  },
  port: {
    key: 'port',
    flags: '--port <number>',
    description: 'listen port (0 = any free port)',
    env: 'KASA_PORT',
    parse: integerIn(0, 65535, 'port'),
    defaultText: '13083',
  },
  dataDir: dataDirSpec,
  sfsUrl: {
    key: 'sfsUrl',
    flags: '--sfs-url <url>',
    description: 'SFS SOAP endpoint URL',
    env: 'KASA_SFS_URL',
    parse: url,
    defaultText: 'the embedded SFS simulator',
  },
  sfsTrust: {
    key: 'sfsTrust',
    flags: '--sfs-trust <pem-file>',
    description: 'PEM file with certificate(s) trusted for SFS response signatures; repeatable',
    env: 'KASA_SFS_TRUST',
    parse: nonEmpty('trust file'),
    repeatable: true,
    defaultText: "the embedded simulator's certificate",
  },
  sfsTimeoutMs: {
    key: 'sfsTimeoutMs',
    flags: '--sfs-timeout-ms <ms>',
    description: 'online limit; past it the document is issued offline',
    env: 'KASA_SFS_TIMEOUT_MS',
    parse: integerIn(50, 600000, 'SFS timeout'),
    defaultText: '5000',
  },
  printer: {
    key: 'printer',
    flags: '--printer <target>',
    description:
      'virtual, none, tcp://HOST:PORT, serial:///dev/X?baudRate=N, usb:///dev/usb/lp0 or chdu (profile in the query: ?chars=42&codepage=cp1250, docs/printing.md)',
    env: 'KASA_PRINTER',
    parse: wrap(parsePrinterTarget),
    defaultText: 'virtual',
  },
  chdu: chduSpec,
  markDir: markDirSpec,
  demo: {
    key: 'demo',
    flags: '--no-demo',
    description: 'do not create a demo merchant on an empty data dir',
    env: 'KASA_NO_DEMO',
    parse: booleanText('KASA_NO_DEMO'),
  },
  sfsSim: {
    key: 'sfsSim',
    flags: '--sfs-sim',
    description:
      'with --no-demo or a CHDU Lite --chdu, send to the embedded SFS simulator (tests, trials); without it they need --sfs-url',
    env: 'KASA_SFS_SIM',
    parse: booleanText('KASA_SFS_SIM'),
  },
  token: {
    key: 'token',
    flags: '--token <token>',
    description:
      'require Authorization: Bearer <token> on every /api/ request; prefer KASA_TOKEN: a flag shows in the process list to every user of the machine',
    env: 'KASA_TOKEN',
    parse: token,
    secret: true,
  },
  logLevel: {
    key: 'logLevel',
    flags: '--log-level <level>',
    description: `pino log level (${LOG_LEVELS.join(', ')})`,
    env: 'KASA_LOG_LEVEL',
    parse: logLevel,
    defaultText: 'info',
  },
  nopEnv: {
    key: 'nopEnv',
    flags: '--nop-env <env>',
    description: 'QR payments through NOP: off, int or prod (fixes the nopEnvironment setting)',
    env: 'KASA_NOP_ENV',
    parse: nopEnv,
    defaultText: 'the nopEnvironment setting (off; the embedded simulator in demo mode)',
  },
  nopUrl: {
    key: 'nopUrl',
    flags: '--nop-url <url>',
    description: "NOP ERP API base URL instead of the environment's (e.g. a kasa nop-sim)",
    env: 'KASA_NOP_URL',
    parse: url,
    defaultText: 'the FS host of the environment',
  },
  nopMqttUrl: {
    key: 'nopMqttUrl',
    flags: '--nop-mqtt-url <url>',
    description: 'NOP MQTT broker (mqtts://HOST:PORT), with --nop-url',
    env: 'KASA_NOP_MQTT_URL',
    parse: mqttUrl,
    defaultText: 'the FS broker of the environment',
  },
  nopTrust: {
    key: 'nopTrust',
    flags: '--nop-trust <pem-file>',
    description: "PEM file with the CA of NOP's server certificates, with --nop-url",
    env: 'KASA_NOP_TRUST',
    parse: nonEmpty('trust file'),
    defaultText: 'the system CAs',
  },
  nopIban: {
    key: 'nopIban',
    flags: '--nop-iban <iban>',
    description: 'the notification account for QR payments (fixes the nopIban setting; mod-97 checked)',
    env: 'KASA_NOP_IBAN',
    parse: nopIban,
    defaultText: 'the nopIban setting (none; a test IBAN in demo mode)',
  },
  nopCreditorName: {
    key: 'nopCreditorName',
    flags: '--nop-creditor-name <name>',
    description: 'the name the QR shows to the payer (fixes the nopCreditorName setting; at most 70)',
    env: 'KASA_NOP_CREDITOR_NAME',
    parse: nopCreditorName,
    defaultText: "the nopCreditorName setting, else the merchant's name",
  },
  swId: {
    key: 'swId',
    flags: '--sw-id <hex>',
    description: 'the SwId the SFS certification assigned (40 hex digits)',
    env: 'KASA_SW_ID',
    parse: swId,
    defaultText: 'derived from the kasa version and the CHDÚ model and firmware',
  },
} satisfies Record<ServeKey, OptionSpec<unknown>>;

/**
 * The configuration `kasa serve` would have with no flag or variable given, for a data dir, with
 * `overrides` applied: what embedding code (tests, benches) composes a register from.
 */
export function defaultServeConfig(dataDir: string, overrides: Partial<ServeConfig> = {}): ServeConfig {
  return Object.freeze({
    host: '127.0.0.1',
    port: 13083,
    dataDir,
    sfsUrl: undefined,
    sfsTrust: [],
    sfsTimeoutMs: 5000,
    printer: { kind: 'virtual' },
    chdu: { kind: 'image', path: resolve(dataDir, 'chdu.img') },
    markDir: defaultMarkDir(),
    demo: true,
    sfsSim: false,
    token: undefined,
    logLevel: 'info',
    nopEnv: undefined,
    nopUrl: undefined,
    nopMqttUrl: undefined,
    nopTrust: undefined,
    nopIban: undefined,
    nopCreditorName: undefined,
    swId: undefined,
    fixed: new Set<ServeKey>(),
    ...overrides,
  } satisfies ServeConfig);
}

export function addServeOptions(cmd: Command): void {
  for (const spec of Object.values(specs)) addOption(cmd, spec as OptionSpec<unknown>);
}

/**
 * Reads the serve configuration from the parsed command and the environment. Throws ConfigError
 * (exit code 2) for a bad environment value.
 */
export function readServeConfig(
  cmd: Command,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): ServeConfig {
  const fixed = new Set<ServeKey>();
  const fixedBy = new Map<ServeKey, string>();
  const get = <K extends ServeKey>(key: K): { value: unknown; source: Source } => {
    const spec = specs[key] as OptionSpec<unknown>;
    const r = readOption(cmd, spec, env);
    if (r.source !== 'default') {
      fixed.add(key);
      fixedBy.set(key, r.source === 'flag' ? spec.flags.split(' ', 1)[0]! : spec.env);
    }
    return r;
  };
  const value = <T>(key: ServeKey, fallback: T): T => (get(key).value as T | undefined) ?? fallback;

  // --no-demo sets demo=false; KASA_NO_DEMO=true means the same.
  let demo = true;
  if (cmd.getOptionValueSource('demo') === 'cli') {
    demo = false;
    fixed.add('demo');
    fixedBy.set('demo', '--no-demo');
  } else {
    const noDemo = readEnv(specs.demo, env);
    if (noDemo !== undefined) {
      demo = !noDemo;
      fixed.add('demo');
      fixedBy.set('demo', specs.demo.env);
    }
  }

  // Every other value is read first, so a bad one is reported even when no data dir can be found.
  const given = {
    host: value<string | undefined>('host', undefined),
    port: value<number | undefined>('port', undefined),
    sfsUrl: value<string | undefined>('sfsUrl', undefined),
    sfsTrust: value<string[]>('sfsTrust', []).map((p) => resolve(cwd, p)),
    sfsTimeoutMs: value<number | undefined>('sfsTimeoutMs', undefined),
    printer: value<PrinterTarget | undefined>('printer', undefined),
    chdu: value<ChduTarget | undefined>('chdu', undefined),
    token: value<string | undefined>('token', undefined),
    logLevel: value<LogLevel | undefined>('logLevel', undefined),
    swId: value<string | undefined>('swId', undefined),
    nopEnv: value<ServeConfig['nopEnv'] | undefined>('nopEnv', undefined),
    nopUrl: value<string | undefined>('nopUrl', undefined),
    nopMqttUrl: value<string | undefined>('nopMqttUrl', undefined),
    nopTrust: value<string | undefined>('nopTrust', undefined),
    nopIban: value<string | undefined>('nopIban', undefined),
    nopCreditorName: value<string | undefined>('nopCreditorName', undefined),
    markDir: value<string | undefined>('markDir', undefined),
    sfsSim: value<boolean>('sfsSim', false),
  };
  const { dataDir, source } = readDataDir(cmd, dataDirSpec, env, cwd);
  if (source !== 'default') {
    fixed.add('dataDir');
    fixedBy.set('dataDir', source === 'flag' ? '--data-dir' : 'KASA_DATA_DIR');
  }
  const d = defaultServeConfig(dataDir);
  const chdu = given.chdu ?? d.chdu;
  const config: ServeConfig = {
    host: given.host ?? d.host,
    port: given.port ?? d.port,
    dataDir,
    dataDirSource: source,
    sfsUrl: given.sfsUrl ?? d.sfsUrl,
    sfsTrust: given.sfsTrust,
    sfsTimeoutMs: given.sfsTimeoutMs ?? d.sfsTimeoutMs,
    printer: given.printer ?? d.printer,
    chdu: chdu.kind === 'image' ? { ...chdu, path: resolve(cwd, chdu.path) } : chdu,
    markDir: resolve(cwd, given.markDir ?? defaultMarkDir(env)),
    demo,
    sfsSim: given.sfsSim,
    token: given.token ?? d.token,
    logLevel: given.logLevel ?? d.logLevel,
    nopEnv: given.nopEnv ?? d.nopEnv,
    nopUrl: given.nopUrl ?? d.nopUrl,
    nopMqttUrl: given.nopMqttUrl ?? d.nopMqttUrl,
    nopTrust: given.nopTrust === undefined ? d.nopTrust : resolve(cwd, given.nopTrust),
    swId: given.swId ?? d.swId,
    nopIban: given.nopIban ?? d.nopIban,
    nopCreditorName: given.nopCreditorName ?? d.nopCreditorName,
    fixed,
    fixedBy,
  };
  return Object.freeze(config);
}

export { ConfigError };
