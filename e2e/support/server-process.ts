import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  baseURL: string;
  port: number;
  /** The server process's id (to sample its memory, e.g. bench/load). */
  pid: number;
  dataDir: string;
  username: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * Starts apps/server on a free port with a fresh data folder (embedded database) and an admin
 * user, and resolves once the API answers.
 */
export async function startServer(
  options: { username?: string; password?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'logo-review-e2e-'));
  const username = options.username ?? 'e2e-admin';
  const password = options.password ?? 'e2e-password-123';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: username,
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseURL}/api/profile/`);
      if (res.status === 401 || res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    baseURL,
    port,
    pid: child.pid!,
    dataDir,
    username,
    password,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
