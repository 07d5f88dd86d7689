import { type Command, InvalidArgumentError, Option } from 'commander';

/**
 * One command-line option that may also come from an environment variable `KASA_<NAME>`
 * (flags win). Values are parsed by one function for both sources, so a bad value is reported
 * the same way (exit code 2, one line naming the flag or the variable).
 */
export interface OptionSpec<T> {
  key: string;
  /** Commander flags, e.g. `--port <number>`. */
  flags: string;
  description: string;
  env: string;
  parse: (text: string) => T;
  /** Shown in --help. */
  defaultText?: string;
  /** Repeatable flag (values collected into an array; env splits on `,`). */
  repeatable?: boolean;
  /** A secret (the token): an invalid value is never echoed in the error. */
  secret?: boolean;
}

export type Source = 'flag' | 'env' | 'default';

export class ConfigError extends Error {}

/** Wraps a validator so commander reports `option '--x <v>' argument 'y' is invalid. <why>`. */
function commanderParser<T>(spec: OptionSpec<T>): (value: string, previous: unknown) => unknown {
  return (value, previous) => {
    let parsed: T;
    try {
      parsed = spec.parse(value);
    } catch (e) {
      throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
    }
    if (!spec.repeatable) return parsed;
    return [...(Array.isArray(previous) ? previous : []), parsed];
  };
}

export function addOption<T>(cmd: Command, spec: OptionSpec<T>): void {
  const defaults = spec.defaultText === undefined ? '' : `default: ${spec.defaultText}; `;
  const option = new Option(spec.flags, `${spec.description} (${defaults}env ${spec.env})`);
  // A flag without a value (`--no-demo`) has nothing to parse: commander would call the parser
  // with `undefined`. Its environment variable is still parsed by readEnv().
  if (/[<[]/.test(spec.flags)) option.argParser(commanderParser(spec));
  cmd.addOption(option);
}

/** The value of one option: from the flag, else the environment, else undefined. */
export function readOption<T>(
  cmd: Command,
  spec: OptionSpec<T>,
  env: Readonly<Record<string, string | undefined>>,
): { value: T | T[] | undefined; source: Source } {
  const attribute = optionAttribute(spec.flags);
  if (cmd.getOptionValueSource(attribute) === 'cli') {
    return { value: cmd.getOptionValue(attribute) as T | T[], source: 'flag' };
  }
  const fromEnv = readEnv(spec, env);
  return fromEnv === undefined ? { value: undefined, source: 'default' } : { value: fromEnv, source: 'env' };
}

/** The option's environment variable, parsed; undefined when unset or empty. */
export function readEnv<T>(
  spec: OptionSpec<T>,
  env: Readonly<Record<string, string | undefined>>,
): T | T[] | undefined {
  const raw = env[spec.env];
  if (raw === undefined || raw === '') return undefined;
  try {
    return spec.repeatable ? raw.split(',').map((part) => spec.parse(part.trim())) : spec.parse(raw);
  } catch (e) {
    const shown = spec.secret ? '' : `="${raw}"`;
    throw new ConfigError(`environment variable ${spec.env}${shown} is invalid. ${(e as Error).message}`);
  }
}

/** `--data-dir <path>` → `dataDir`; `--no-demo` → `demo`. */
export function optionAttribute(flags: string): string {
  const long = flags.split(/[ ,|]+/).find((f) => f.startsWith('--'))!;
  const name = long.replace(/^--(no-)?/, '');
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

// Small parsers shared by the commands.
export function integerIn(min: number, max: number, what: string): (text: string) => number {
  return (text) => {
    if (!/^-?\d+$/.test(text.trim())) throw new Error(`${what} must be an integer ${min}-${max}`);
    const n = Number(text);
    if (n < min || n > max) throw new Error(`${what} must be an integer ${min}-${max}`);
    return n;
  };
}

export function booleanText(what: string): (text: string) => boolean {
  return (text) => {
    const t = text.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(t)) return true;
    if (['0', 'false', 'no', 'off'].includes(t)) return false;
    throw new Error(`${what} must be true/false, 1/0, yes/no or on/off`);
  };
}

export function nonEmpty(what: string): (text: string) => string {
  return (text) => {
    if (text.trim() === '') throw new Error(`${what} must not be empty`);
    return text;
  };
}
