import { accessSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDataDirAccess, type DataDirFs, explainDataDirError } from './data-dir-access.js';

let dir: string;
let data: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-access-'));
  data = join(dir, 'data');
  mkdirSync(join(data, 'demo-ca'), { recursive: true });
  mkdirSync(join(data, 'virtual-printer'));
  writeFileSync(join(data, 'chdu.img'), '');
  writeFileSync(join(data, 'demo-ca', 'ca-key.pem'), '');
  writeFileSync(join(data, 'virtual-printer', 'receipt-1.txt'), '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const errno = (code: string, syscall: string, path: string) =>
  Object.assign(new Error(`${code}: denied, ${syscall} '${path}'`), { code, syscall, path });

/** The real file system, but `denied` answers access(2) as a file of another owner would. */
function fsDenying(denied: Record<string, string>, listed: string[] = []): DataDirFs {
  return {
    mkdir: (path) => mkdirSync(path, { recursive: true }),
    access: (path, mode) => {
      const code = denied[path];
      if (code) throw errno(code, 'access', path);
      accessSync(path, mode);
    },
    readdir: (path) => {
      listed.push(path);
      return readdirSync(path, { withFileTypes: true });
    },
  };
}

const me = userInfo().username;
const fix = (d: string) => `e.g. sudo chown -R ${me} ${d} && sudo chmod -R u+rwX ${d}`;
const uid = process.getuid?.();
const who = (code: string) => `the user ${me} (${uid === undefined ? '' : `uid ${uid}; `}${code})`;

describe('checkDataDirAccess', () => {
  it('passes a data dir this user owns, and creates a missing one', () => {
    expect(checkDataDirAccess(data)).toBeUndefined();
    expect(checkDataDirAccess(join(dir, 'new', 'data'))).toBeUndefined();
    expect(readdirSync(join(dir, 'new'))).toEqual(['data']);
  });

  it('names a file of another owner inside the data dir (a `sudo kasa …` left it to root)', () => {
    const key = join(data, 'demo-ca', 'ca-key.pem');
    expect(checkDataDirAccess(data, fsDenying({ [key]: 'EACCES' }))).toBe(
      `${key} in the data dir ${data} cannot be read and written by ${who('EACCES')}: give the data dir and everything in it to the user kasa runs as, writable (${fix(data)})`,
    );
  });

  it('names the data dir itself when it is read-only, or on a read-only file system', () => {
    expect(checkDataDirAccess(data, fsDenying({ [data]: 'EACCES' }))).toBe(
      `the data dir ${data} cannot be read and written by ${who('EACCES')}: give the data dir and everything in it to the user kasa runs as, writable (${fix(data)})`,
    );
    expect(checkDataDirAccess(data, fsDenying({ [data]: 'EROFS' }))).toBe(
      `the data dir ${data} is on a read-only file system (EROFS): give kasa a writable --data-dir (KASA_DATA_DIR)`,
    );
  });

  it('says how to create a data dir this user may not create', () => {
    const fs: DataDirFs = {
      ...fsDenying({}),
      mkdir: (path) => {
        throw errno('EACCES', 'mkdir', path);
      },
    };
    const target = join(dir, 'root-only', 'data');
    expect(checkDataDirAccess(target, fs)).toBe(
      `the data dir ${target} cannot be created by ${who('EACCES')}: create it for the user kasa runs as (e.g. sudo install -d -o ${me} -m 700 ${target}), or give another --data-dir`,
    );
  });

  it('checks the virtual printer folder but not every receipt in it', () => {
    const listed: string[] = [];
    const receipt = join(data, 'virtual-printer', 'receipt-1.txt');
    expect(checkDataDirAccess(data, fsDenying({ [receipt]: 'EACCES' }, listed))).toBeUndefined();
    expect(listed).not.toContain(join(data, 'virtual-printer'));
    const folder = join(data, 'virtual-printer');
    expect(checkDataDirAccess(data, fsDenying({ [folder]: 'EACCES' }))).toMatch(
      new RegExp(`^${folder} in the data dir`),
    );
  });
});

describe('explainDataDirError', () => {
  it('turns a refusal inside the data dir into the same sentence, and leaves others alone', () => {
    const key = join(data, 'demo-ca', 'ca-key.pem');
    expect(explainDataDirError(errno('EACCES', 'open', key), data)).toMatch(
      new RegExp(`^${key} in the data dir ${data} cannot be read and written by`),
    );
    expect(explainDataDirError(errno('EACCES', 'open', '/etc/kasa/trust.pem'), data)).toBeUndefined();
    expect(explainDataDirError(errno('ENOENT', 'open', key), data)).toBeUndefined();
    expect(explainDataDirError(new Error('something else'), data)).toBeUndefined();
  });

  it("names the data dir for SQLite's bare 'unable to open database file'", () => {
    const notADb = join(data, 'index.sqlite');
    mkdirSync(notADb); // a folder where SQLite wants its file: SQLITE_CANTOPEN, even for root
    let thrown: unknown;
    try {
      new Database(notADb).close();
    } catch (e) {
      thrown = e;
    }
    expect(explainDataDirError(thrown, data)).toBe(
      `a database file of kasa cannot be opened for writing (SQLITE_CANTOPEN: unable to open database file): check that the data dir ${data} and everything in it (and the folder of an image CHDÚ kept elsewhere) belong to the user ${me} that kasa runs as and are writable (${fix(data)})`,
    );
  });
});
