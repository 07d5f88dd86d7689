import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file of the admin page, held in memory. */
export interface WebFile {
  type: string;
  body: Buffer;
}

/** The admin page: `index.html` and its assets, all served by kasa itself (no CDN). */
export interface AdminPage {
  index: WebFile;
  /** Assets by file name, served under `/admin/`. */
  assets: ReadonlyMap<string, WebFile>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The page's own folder, `admin/` beside this module: src/web/admin/ under tsx, dist/web/admin/ when
 * built (non-TS files copied). Only the page lives there — this folder (dist/web/) also holds kasa's
 * compiled server modules, which served as assets showed kasa's own code (ADR 0427).
 */
const PAGE_DIR = fileURLToPath(new URL('admin/', import.meta.url));

/**
 * Reads the page's files once at start (a fixed set: only names in the page's folder with a known
 * type are ever served, so no request path reaches the file system).
 */
export function loadAdminPage(dir: string = PAGE_DIR): AdminPage {
  const assets = new Map<string, WebFile>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type === undefined || !/^[a-z0-9-]+\.[a-z]+$/.test(name)) continue;
    assets.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  const index = assets.get('index.html');
  if (!index) throw new Error(`the admin page is missing: no index.html in ${dir}`);
  return { index, assets };
}
