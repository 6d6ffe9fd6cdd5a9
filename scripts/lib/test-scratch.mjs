// Where `npm test`'s runs keep their scratch files. Miniflare keeps each test runtime's D1, R2,
// queues and Durable Objects as SQLite files under the temporary folder, and the node tests'
// local services keep their state folders there too. On a disk every SQLite commit waits for
// its sync: the workerd group left a third of its CPU idle waiting on them. A memory-backed
// folder (Linux's /dev/shm) has no such wait. Only when it has room to spare; else the usual
// temporary folder.
import {
  accessSync,
  constants,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
  statSync,
} from "node:fs";
import path from "node:path";

/** A memory-backed folder this full leaves the tests' peak (about 1.5 GB) ample room. */
export const MIN_FREE_BYTES = 4 * 1024 ** 3;

/** Whether a process with this id is running (one we may not signal still runs). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * Removes the scratch folders under `root` of runs whose process is gone: a run killed outright
 * cannot remove its own, and memory holds it until the machine restarts.
 */
export function removeStale(root, prefix) {
  let names;
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(prefix) && /^(\d+)-/.exec(name.slice(prefix.length));
    if (match && !alive(Number(match[1])))
      rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/**
 * A fresh scratch folder on `root` (default /dev/shm), named for this process, when `root` is a
 * writable folder with at least `minFreeBytes` free once stale runs' folders are removed, with a
 * `remove` that deletes it; or null.
 */
export function memoryScratch(
  root = "/dev/shm",
  prefix = "vas-test-",
  minFreeBytes = MIN_FREE_BYTES,
) {
  try {
    if (!statSync(root).isDirectory()) return null;
    accessSync(root, constants.W_OK);
    removeStale(root, prefix);
    const { bavail, bsize } = statfsSync(root);
    if (bavail * bsize < minFreeBytes) return null;
    const dir = mkdtempSync(path.join(root, `${prefix}${process.pid}-`));
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch {
    return null;
  }
}
