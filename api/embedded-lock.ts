import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * One process at a time on an embedded database folder. PGlite runs PostgreSQL inside the process that opens it:
 * there is no server for a second process to connect to and no locking across processes, so two processes on
 * one folder each work on their own copy and overwrite each other's files (a billing run beside a server charged
 * memberships the server never saw). Opening a folder creates `<folder>.lock` beside it (in DATA_DIR for the
 * configured database: `pglite.lock`), holding the opener's pid; closing removes it, and so does the process's
 * exit. A lock whose process is gone (killed, crashed, the machine restarted) is taken over.
 *
 * Beside the folder, not in it: a snapshot (Database.snapshot) archives every file of the folder, and a database
 * started from it would start with the lock of the process that took it.
 */

/** Opening refused: another live process (or this one) has the folder open. */
export class EmbeddedDatabaseInUse extends Error {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    const where = shownPath(dataDir);
    super(
      pid === process.pid
        ? `The embedded database in ${where} is already open in this process (pid ${pid}): close it before opening it again.`
        : `The embedded database in ${where} is in use by a running server (pid ${pid}): run billing from the Jobs screen, or stop the server.`,
    );
    this.name = "EmbeddedDatabaseInUse";
    this.pid = pid;
  }
}

/**
 * For a process that cannot go on without its database (the server, the scripts): a refusal prints its one
 * line, without a stack trace (it is about another process, not a fault here), and exits 1; any other error is
 * thrown on. `openDatabase(…).catch(exitIfInUse)`.
 */
export function exitIfInUse(error: unknown): never {
  if (!(error instanceof EmbeddedDatabaseInUse)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

/** The locks this process holds: lock file → its exact content (released only while the file still says so). */
const held = new Map<string, string>();

// A process that ends without closing its database (an error, process.exit) leaves no lock behind. A signal's
// default action skips this; the next opener then finds the pid gone and takes the lock over.
process.on("exit", () => {
  for (const [file, content] of held) {
    try {
      removeIfOurs(file, content);
    } catch {
      // Exiting anyway: the next opener takes a lock whose process is gone over.
    }
  }
});

/**
 * Takes the lock of the embedded database folder `dir` (before PGlite opens it; its parent folder exists);
 * returns the release, for close(). Refused with EmbeddedDatabaseInUse while a live process holds it, this one
 * included.
 */
export async function lockEmbeddedDatabase(dir: string): Promise<() => void> {
  const folder = path.resolve(dir);
  const file = `${folder}.lock`;
  // PGlite cannot share a folder within one process either.
  if (held.has(file)) throw new EmbeddedDatabaseInUse(path.dirname(folder), process.pid);
  const content = `${JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() })}\n`;
  // A few rounds: each failed one saw a lock come or go under it (another process starting or stopping at the
  // same moment), and the next one looks again.
  for (let round = 0; round < 5; round++) {
    if (create(file, content)) {
      held.set(file, content);
      let released = false;
      // Once only: a close() repeated after the folder was opened again must not release the new lock.
      return () => {
        if (released) return;
        released = true;
        held.delete(file);
        removeIfOurs(file, content);
      };
    }
    const found = await readLock(file);
    if (found === undefined) continue; // released meanwhile
    const { pid, text } = found;
    // Our own pid in a lock we do not hold is a previous process's that had the same pid (containers restart
    // with the same few pids).
    if (pid !== undefined && pid !== process.pid && alive(pid)) throw new EmbeddedDatabaseInUse(path.dirname(folder), pid);
    takeOver(file, text);
  }
  throw new Error(`Could not take the lock ${file}: other processes kept taking and releasing it`);
}

/** Creates the lock file with our content; false when it exists. */
function create(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * The lock file's text and the pid in it; undefined when there is no file. The pid is undefined when the text is
 * not a lock's: still empty for a moment after its creator created it (read again, up to a second), or a file
 * its creator never finished (it died in between, or the disk was full), which is taken over.
 */
async function readLock(file: string): Promise<{ pid?: number; text: string } | undefined> {
  let text = "";
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const pid = pidIn(text);
    if (pid !== undefined) return { pid, text };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { text };
}

function pidIn(text: string): number | undefined {
  try {
    const { pid } = JSON.parse(text) as { pid?: unknown };
    return typeof pid === "number" && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it does, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Removes a stale lock, `text` being what it said. Two processes may find the same stale lock: each moves the
 * file aside to a name of its own first (a rename is atomic), and only removes what it moved when that is still
 * the stale lock; the other one's fresh lock, moved aside by mistake, is put back.
 */
function takeOver(file: string, text: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // taken over by another process already
    throw error;
  }
  try {
    if (fs.readFileSync(aside, "utf8") !== text) fs.linkSync(aside, file);
  } catch (error) {
    // EEXIST: yet another process created a lock meanwhile, which stands; the one moved aside is lost to it.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/** Removes the lock file when it is still the one we wrote (not taken over by another process since). */
function removeIfOurs(file: string, content: string): void {
  try {
    if (fs.readFileSync(file, "utf8") === content) fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** A folder as the user would write it: `./…` inside the working folder, absolute elsewhere. */
function shownPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  if (relative === "") return ".";
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return outside ? dir : `./${relative}`;
}
