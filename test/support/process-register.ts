import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { type ServeChild, startServeChild } from './serve-child.js';
import { repoRoot } from './shared-fixtures.js';

/** A `kasa sfs-sim` process: its SOAP URL, control base and response-signing certificate. */
export interface SfsSimChild {
  url: string;
  base: string;
  signingCert: string;
  child: ChildProcess;
  /** POST a control call (`/__sim/fault`, `/__sim/offline`, …). */
  control(path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startSfsSimChild(caDir: string, timeoutMs = 30_000): Promise<SfsSimChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'src/main.ts'), 'sfs-sim', '--port', '0', '--ca-dir', caDir],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const { url, signingCert } = await new Promise<{ url: string; signingCert: string }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`kasa sfs-sim did not start: ${out}`)), timeoutMs);
    const look = () => {
      const u = /listening on (http:\/\/\S+)/.exec(out);
      const c = /response signing certificate: (\S+)/.exec(out);
      if (u && c) {
        clearTimeout(t);
        resolve({ url: u[1]!, signingCert: c[1]! });
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', () => reject(new Error(`kasa sfs-sim exited: ${out}`)));
  });
  const base = new URL(url).origin;
  return {
    url,
    base,
    signingCert,
    child,
    async control(path, body) {
      const res = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return res.json();
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The `kasa serve` flags for a register that talks to `sim` (no demo merchant). */
export function serveArgs(
  dataDir: string,
  markDir: string,
  sim: SfsSimChild,
  extra: string[] = [],
): string[] {
  return [
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--mark-dir',
    markDir,
    '--no-demo',
    '--sfs-url',
    sim.url,
    '--sfs-trust',
    sim.signingCert,
    '--log-level',
    'warn',
    ...extra,
  ];
}

/** Loads a test merchant issued by the simulator's CA into a running serve (once per data dir). */
export async function storeTestMerchant(
  serve: ServeChild,
  caDir: string,
  password = 'Crash-Test-Pw-1',
): Promise<void> {
  const merchant = createTestMerchant({ caDir, password });
  const res = await fetch(`${serve.url}/api/merchant/store`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      identificationData: merchant.identityXml,
      authenticationData: merchant.authXml,
      keyStorePassword: password,
    }),
  });
  const body = (await res.json()) as { resultCode: number };
  if (body.resultCode !== 0) throw new Error(`merchant/store answered ${JSON.stringify(body)}`);
}

/** SIGKILL: the process gets no chance to finish anything (what the crash tests are about). */
export async function killHard(serve: ServeChild): Promise<void> {
  const exited = new Promise<void>((r) => {
    if (serve.child.exitCode !== null || serve.child.signalCode !== null) r();
    else serve.child.once('exit', () => r());
  });
  serve.child.kill('SIGKILL');
  await exited;
}

export { type ServeChild, startServeChild };
