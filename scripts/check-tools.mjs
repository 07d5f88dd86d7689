// `npm test` needs a few Debian tools; say which are missing and how to get them, instead of
// letting tests fail with spawn errors. (.ci/run installs them.)
import { spawnSync } from 'node:child_process';

const tools = { socat: 'socat', xmlsec1: 'xmlsec1', xmllint: 'libxml2-utils', openssl: 'openssl' };
const missing = Object.keys(tools).filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
if (missing.length > 0) {
  const pkgs = missing.map((t) => tools[t]).join(' ');
  console.error(
    `kasa tests need: ${missing.join(', ')}. Install with: sudo apt-get install -y ${pkgs}  (or run .ci/run)`,
  );
  process.exit(1);
}
