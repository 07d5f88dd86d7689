import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Small secrets (a merchant keystore and its passwords) sealed at rest in `<data-dir>/secrets/`
 * (docs/adr/0200-merchant-secrets-at-rest.md). Each file is AES-256-GCM under a key derived with
 * HKDF-SHA256 from a host secret (not stored in the data dir) and a random per-install salt (stored
 * there); the file name is bound as associated data, so a sealed file renamed to another name does
 * not open. Directory mode 0700, files 0600, written atomically.
 */
export class SealedSecretStore {
  readonly dir: string;
  readonly #hostSecret: () => Uint8Array;

  /**
   * @param dir the secrets folder, usually `<data-dir>/secrets`
   * @param hostSecret the key material that does not live in the data dir; default
   *   {@link machineSecret}
   */
  constructor(dir: string, hostSecret: () => Uint8Array = machineSecret) {
    this.dir = dir;
    this.#hostSecret = hostSecret;
  }

  /** Seals `plaintext` under `name` (letters, digits, `.`, `-`, `_`), replacing an older one. */
  save(name: string, plaintext: Uint8Array): void {
    checkName(name);
    this.#ensureDir();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key(true), iv);
    cipher.setAAD(Buffer.from(`${MAGIC}${name}`));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    writeAtomic(join(this.dir, name), Buffer.concat([Buffer.from(MAGIC), iv, cipher.getAuthTag(), body]));
  }

  /**
   * Opens the secret `name`; undefined when there is none.
   *
   * @throws Error when the file exists but does not open (other host, salt lost, damaged).
   */
  load(name: string): Uint8Array | undefined {
    checkName(name);
    const path = join(this.dir, name);
    if (!existsSync(path)) return undefined;
    const file = readFileSync(path);
    const head = MAGIC.length;
    if (file.length < head + 28 || file.subarray(0, head).toString() !== MAGIC) {
      throw new Error(`secret ${name} is not a kasa sealed file`);
    }
    const key = this.#key(false);
    if (!key) throw new Error(`the install salt of ${this.dir} is missing`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, file.subarray(head, head + 12));
      decipher.setAAD(Buffer.from(`${MAGIC}${name}`));
      decipher.setAuthTag(file.subarray(head + 12, head + 28));
      return new Uint8Array(Buffer.concat([decipher.update(file.subarray(head + 28)), decipher.final()]));
    } catch {
      throw new Error(
        `secret ${name} cannot be decrypted on this host (moved data dir, changed host secret or damaged file)`,
      );
    }
  }

  remove(name: string): void {
    checkName(name);
    rmSync(join(this.dir, name), { force: true });
  }

  #ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }

  /** The sealing key; creates the install salt when `create` (first save). */
  #key(create: true): Buffer;
  #key(create: false): Buffer | undefined;
  #key(create: boolean): Buffer | undefined {
    const saltPath = join(this.dir, SALT_FILE);
    if (!existsSync(saltPath)) {
      if (!create) return undefined;
      writeAtomic(saltPath, randomBytes(32));
    }
    const salt = readFileSync(saltPath);
    return Buffer.from(hkdfSync('sha256', this.#hostSecret(), salt, HKDF_INFO, 32));
  }
}

const MAGIC = 'KASA-SEALED-1\n';
const SALT_FILE = 'install-salt';
const HKDF_INFO = 'kasa merchant secrets v1';

function checkName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name) || name === SALT_FILE) {
    throw new Error(`bad secret name ${JSON.stringify(name)}`);
  }
}

function writeAtomic(path: string, data: Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  const dirFd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * The default host secret: the systemd/D-Bus machine id (`/etc/machine-id`, else
 * `/var/lib/dbus/machine-id`), which a copy of the data dir does not carry. Without one (some
 * containers, non-Linux hosts) it falls back to the host name, which is weak: see the ADR.
 */
export function machineSecret(): Uint8Array {
  const id = machineId();
  return Buffer.from(id === undefined ? `hostname:${hostname()}` : `machine-id:${id}`);
}

/** True when {@link machineSecret} falls back to the guessable host name (ADR 0200). */
export function machineSecretIsWeak(): boolean {
  return machineId() === undefined;
}

function machineId(): string | undefined {
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(path, 'utf8').trim();
      if (id.length >= 16) return id;
    } catch {
      // try the next source
    }
  }
  return undefined;
}

/** A host secret kept in a file outside the data dir (e.g. a systemd credential), for `hostSecret`. */
export function fileSecret(path: string): () => Uint8Array {
  return () => {
    const bytes = readFileSync(path);
    if (bytes.length < 16) throw new Error(`the secret key file ${path} holds fewer than 16 bytes`);
    return new Uint8Array(bytes);
  };
}
