import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding kasa's package.json (the same from src/ and from the compiled dist/). */
const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const HASH = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The commit the running code comes from (12 hex digits), when it runs from a git checkout, a
 * `git worktree` or a clone with packed refs; undefined for an installed tarball or anything it
 * cannot read. Read from the files git keeps (no `git` process), so start-up does not depend on
 * git being installed. Shown by `GET /api/version` and in `kasa serve`'s first line.
 */
export function readBuildCommit(root: string = packageRoot): string | undefined {
  try {
    const gitDir = findGitDir(root);
    if (gitDir === undefined) return undefined;
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return short(head);
    const ref = head.slice(5).trim();
    // A worktree keeps its HEAD in its own folder and its branches in the main one (commondir).
    const commonFile = join(gitDir, 'commondir');
    const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, common]) {
      const loose = join(dir, ref);
      if (existsSync(loose)) return short(readFileSync(loose, 'utf8').trim());
    }
    const packed = join(common, 'packed-refs');
    if (!existsSync(packed)) return undefined;
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const [hash, name] = line.trim().split(' ');
      if (name === ref && hash !== undefined) return short(hash);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** `.git` is a folder in a checkout and a file (`gitdir: …`) in a worktree. */
function findGitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return undefined;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const text = readFileSync(dotGit, 'utf8').trim();
  return text.startsWith('gitdir: ') ? resolve(root, text.slice(8).trim()) : undefined;
}

function short(hash: string): string | undefined {
  return HASH.test(hash) ? hash.slice(0, 12) : undefined;
}
