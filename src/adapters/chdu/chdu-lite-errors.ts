import { COMMAND_NAMES, ERROR_NAMES } from './chdu-lite-codec.js';

/** The device refused a command: NAK and its error byte. */
export class DeviceError extends Error {
  constructor(
    readonly code: number,
    readonly cmd: number,
  ) {
    super(`${COMMAND_NAMES.get(cmd) ?? cmd} answered NAK ${ERROR_NAMES.get(code) ?? code}`);
  }
}

/** An answer that does not fit the protocol: the line is resynchronised before the next command. */
export class ProtocolError extends Error {}

/** After a failed exchange the line did not fall quiet: it cannot be trusted yet (200). */
export class LineNotQuiet extends Error {}
