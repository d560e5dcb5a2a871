import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface DirLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite has no lock of its own and two processes opening one data directory corrupt it, so the
 * process that opens it holds `db.lock` (its pid). A lock left by a dead process is taken over.
 */
export function acquireDirLock(dataDir: string): DirLock {
  const file = path.join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && (pid === process.pid || alive(pid))) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${pid} (a running server). ` +
            'Stop that server first, or use PostgreSQL (DATABASE_URL) to run several processes.',
        );
      }
      unlinkSync(file); // stale lock of a dead process
    }
  }
  throw new Error(`Could not lock ${file}`);
}
