import { accessSync, constants, type Dirent, mkdirSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';

/** The file-system calls the check makes (tests put a foreign owner's file there as root). */
export interface DataDirFs {
  mkdir(path: string): void;
  access(path: string, mode: number): void;
  readdir(path: string): Dirent[];
}

const realFs: DataDirFs = {
  mkdir: (path) => mkdirSync(path, { recursive: true }), // as composeKasa makes it
  access: accessSync,
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
};

/** Permission errors: a restart cannot cure them, only the owner of the files can. */
const DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);
/** The virtual printer's paper: one file per receipt, written new; only its folder matters. */
const NOT_WALKED = new Set(['virtual-printer']);
/** Bounds the start-up's work on a data dir that holds far more than kasa puts there. */
const MAX_ENTRIES = 2000;

/**
 * Checks, before `kasa serve` opens anything, that this user can read and write the data dir and
 * what kasa keeps in it (two levels deep: the CHDÚ image, the index, `secrets/`, `demo-ca/` …),
 * creating the folder when it is missing. Returns one sentence naming the path, the cause and what
 * to do, or undefined when all is well. A data dir left to root by a `sudo kasa …`, or a read-only
 * one, otherwise fails deep inside the start with a bare `EACCES … open` or SQLite's `unable to
 * open database file`, and systemd restarts it for ever (docs/install.md: exit 2 stops that).
 */
export function checkDataDirAccess(dataDir: string, fs: DataDirFs = realFs): string | undefined {
  try {
    fs.mkdir(dataDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined || !DENIED.has(code)) throw e;
    return `the data dir ${dataDir} cannot be created by ${whoAmI(code)}: create it for the user kasa runs as (e.g. sudo install -d -o ${userName()} -m 700 ${dataDir}), or give another --data-dir`;
  }
  let seen = 0;
  const check = (path: string, mode: number): string | undefined => {
    try {
      fs.access(path, mode);
      return undefined;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined; // removed meanwhile
      return deniedSentence(dataDir, path, code ?? (e as Error).message);
    }
  };
  const walk = (dir: string, depth: number): string | undefined => {
    const problem = check(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    if (problem || depth === 2 || (depth === 1 && NOT_WALKED.has(lastPart(dir)))) return problem;
    for (const entry of fs.readdir(dir)) {
      if (++seen > MAX_ENTRIES) return undefined;
      const path = join(dir, entry.name);
      const found = entry.isDirectory()
        ? walk(path, depth + 1)
        : entry.isFile()
          ? check(path, constants.R_OK | constants.W_OK)
          : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return walk(dataDir, 0);
}

/**
 * The same sentence for an error the start met anyway (a file created meanwhile, a database
 * SQLite cannot open for writing): undefined when `e` is not about the data dir's permissions.
 */
export function explainDataDirError(e: unknown, dataDir: string): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const code = (e as NodeJS.ErrnoException).code;
  const path = (e as NodeJS.ErrnoException).path;
  if (code !== undefined && DENIED.has(code) && typeof path === 'string' && inside(dataDir, path)) {
    return deniedSentence(dataDir, path, code);
  }
  // better-sqlite3 names neither the file nor the cause ("unable to open database file"). Its
  // files are the index, the QR payments and the lock files: in the data dir, but for the lock
  // beside an image CHDÚ kept elsewhere (--chdu image:PATH).
  if (code === 'SQLITE_CANTOPEN' || code?.startsWith('SQLITE_READONLY')) {
    return `a database file of kasa cannot be opened for writing (${code}: ${e.message}): check that the data dir ${dataDir} and everything in it (and the folder of an image CHDÚ kept elsewhere) belong to the user ${userName()} that kasa runs as and are writable (${fixCommand(dataDir)})`;
  }
  return undefined;
}

function deniedSentence(dataDir: string, path: string, code: string): string {
  if (code === 'EROFS') {
    return `the data dir ${dataDir} is on a read-only file system (EROFS): give kasa a writable --data-dir (KASA_DATA_DIR)`;
  }
  const what = path === dataDir ? `the data dir ${dataDir}` : `${path} in the data dir ${dataDir}`;
  return `${what} cannot be read and written by ${whoAmI(code)}: give the data dir and everything in it to the user kasa runs as, writable (${fixCommand(dataDir)})`;
}

/** Owner and mode in one go: a root-owned copy needs the first, a read-only folder the second. */
function fixCommand(dataDir: string): string {
  return `e.g. sudo chown -R ${userName()} ${dataDir} && sudo chmod -R u+rwX ${dataDir}`;
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function lastPart(path: string): string {
  return path.slice(path.lastIndexOf(sep) + 1);
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'the service user');
  }
}

/** `the user kasa (uid 998; EACCES)`: who was refused, and the system's word for it. */
function whoAmI(cause: string): string {
  const uid = process.getuid?.();
  return `the user ${userName()} (${uid === undefined ? '' : `uid ${uid}; `}${cause})`;
}
