import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SealedSecretStore } from './sealed-secret-store.js';

const hostA = () => new TextEncoder().encode('host-secret-A-0123456789');
const hostB = () => new TextEncoder().encode('host-secret-B-0123456789');
const plain = new TextEncoder().encode('{"keyStorePassword":"Very-Distinct-Pw-9137"}');

function fresh(): string {
  return join(mkdtempSync(join(tmpdir(), 'kasa-seal-')), 'secrets');
}

describe('sealed secret store', () => {
  it('round-trips, keeps the folder 0700 and files 0600, and holds nothing in clear', () => {
    const dir = fresh();
    const store = new SealedSecretStore(dir, hostA);
    store.save('merchant-x', plain);
    expect(store.load('merchant-x')).toEqual(plain);
    expect(new SealedSecretStore(dir, hostA).load('merchant-x')).toEqual(plain); // a new instance: a restart
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) {
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, name)).includes(Buffer.from('Very-Distinct-Pw-9137'))).toBe(false);
    }
    expect(store.load('absent')).toBeUndefined();
  });

  it('does not open with another host secret, without the install salt, or under another name', () => {
    const dir = fresh();
    new SealedSecretStore(dir, hostA).save('merchant-x', plain);
    expect(() => new SealedSecretStore(dir, hostB).load('merchant-x')).toThrow(/cannot be decrypted/);
    copyFileSync(join(dir, 'merchant-x'), join(dir, 'merchant-y'));
    expect(() => new SealedSecretStore(dir, hostA).load('merchant-y')).toThrow(/cannot be decrypted/);
    rmSync(join(dir, 'install-salt'));
    expect(() => new SealedSecretStore(dir, hostA).load('merchant-x')).toThrow(/salt/);
  });

  it('detects a changed byte', () => {
    const dir = fresh();
    const store = new SealedSecretStore(dir, hostA);
    store.save('merchant-x', plain);
    const path = join(dir, 'merchant-x');
    const bytes = readFileSync(path);
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(path, bytes);
    expect(() => store.load('merchant-x')).toThrow(/cannot be decrypted/);
  });

  it('refuses names that could leave the folder', () => {
    const store = new SealedSecretStore(fresh(), hostA);
    expect(() => store.save('../x', plain)).toThrow(/bad secret name/);
    expect(() => store.save('install-salt', plain)).toThrow(/bad secret name/);
  });
});
