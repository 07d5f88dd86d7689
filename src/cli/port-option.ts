import { InvalidArgumentError } from 'commander';

/** A `--…-port` option of the simulator commands: a TCP port 0–65535 (0 = any free port). */
export function portOption(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > 65535)
    throw new InvalidArgumentError('a TCP port 0-65535 (0 = any free port)');
  return n;
}
