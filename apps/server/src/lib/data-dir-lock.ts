// The embedded database belongs to one process at a time. The lock file names the
// owning process and its control socket, so a second server refuses to start and the
// CLI knows to talk to the running server instead of opening the store itself.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  socket: string | null;
  role: 'server' | 'cli';
  startedAt: string;
}

export class DataDirBusyError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'rally.lock');
}

/** A socket path short enough for every platform (Unix sockets are limited to ~100 bytes). */
export function controlSocketPath(dataDir: string): string {
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `rally-${id}.sock`);
}

export function readLiveLock(dataDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
    return info.pid !== process.pid && alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

export function acquireDataDirLock(dataDir: string, role: LockInfo['role'], socket: string | null): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const info: LockInfo = { pid: process.pid, socket, role, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(info), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLiveLock(dataDir);
      if (holder) {
        throw new DataDirBusyError(
          `DATA_DIR ${dataDir} is in use by another ${holder.role} (pid ${holder.pid}). ` +
            'Stop it first, or start this one with another DATA_DIR.',
        );
      }
      // The previous owner died without cleaning up: take the lock over.
      unlinkSync(file);
    }
  }
  throw new DataDirBusyError(`Could not lock DATA_DIR ${dataDir}`);
}
