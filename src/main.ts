import { readFileSync } from 'node:fs';
import { defaultIo, runCli } from './cli/program.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const code = await runCli(process.argv.slice(2), defaultIo(), pkg.version);
// Long-running commands resolve only after a clean shutdown, so exiting here loses nothing.
process.exit(code);
