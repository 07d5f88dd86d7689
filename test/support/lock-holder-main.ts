// Child process for test/support/lock-holder-child.ts: takes a lock and keeps it until killed.
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { DataDirLock } from '../../src/adapters/data-dir-lock.js';
import { FileLock } from '../../src/adapters/file-lock.js';

const [kind, path] = process.argv.slice(2) as [string, string];
const held: unknown[] = [];
if (kind === 'file-lock') held.push(FileLock.acquire(path, 'test-holder'));
else if (kind === 'data-dir') held.push(DataDirLock.acquire(path, 'serve'));
else held.push(await ImageFileChdu.open(path, { create: true, capacityBlocks: 1000 }));
(globalThis as { held?: unknown[] }).held = held;
process.stdout.write('held\n');
setInterval(() => undefined, 60_000);
