import { rmSync } from 'node:fs';
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { onTestFailed } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Node's flag that keeps WebAssembly on V8's baseline compiler (Liftoff), for servers whose test
 * measures or kills them. On Node 24 (V8 13.6) the optimizing compiler (Turboshaft) compiles the
 * embedded database's SQL parser (`raw_parser`, 105 KB of Wasm) a few seconds after each start with
 * ~450-600 MB of compiler memory for 2-6 s (V8 11, Node 20: 26 MB), given back after, and it can
 * abort the process ("Fatal process out of memory: Zone"; nodejs/node#63421). Only the command
 * line sets it.
 */
export const LIFTOFF_ONLY = ['--liftoff-only'];

const children: ChildProcess[] = [];
/** Every server process started here, with how it ended: for {@link serverReport}. */
const started: { child: ChildProcess; nodeArgs: string[]; output: () => string; ended?: string }[] = [];

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  port: number;
}

/**
 * Starts `main.ts` in its own process; resolves once it listens (or, as a worker, has started).
 * `nodeArgs` go on node's command line (V8 flags, which NODE_OPTIONS does not take).
 */
export function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ADMIN_PASSWORD: '', LOG_LEVEL: 'warn', ...env },
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const record: (typeof started)[number] = { child, nodeArgs, output: () => out };
  started.push(record);
  child.on('exit', (code, signal) => {
    const how = signal
      ? `${child.killed ? 'killed by the test' : 'died'} (${signal})`
      : `exited with code ${code}`;
    record.ended = `${how} at ${new Date().toISOString()}`;
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (/is running on|worker started/.test(out)) {
        clearInterval(timer);
        resolve({ child, output: () => out, port: Number(/localhost:(\d+)/.exec(out)?.[1] ?? 0) });
      }
    }, 100);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code ?? signal}: ${out}`));
    });
  });
}

/**
 * What each server process started so far said (the last `tail` characters) and how it ended (or
 * that it still runs): for a failed test's message, since a fetch that fails says only why the
 * connection did (ECONNRESET, ECONNREFUSED), not why the server went away.
 */
export function serverReport(tail = 4000): string {
  return started
    .map(({ child, nodeArgs, output, ended }, i) => {
      const out = output();
      return (
        `--- server process ${i + 1} (pid ${child.pid}${nodeArgs.length ? `, ${nodeArgs.join(' ')}` : ''}): ` +
        `${ended ?? 'still running'}; ${out.length > tail ? `last ${tail} of ${out.length} characters` : 'its output'}:\n` +
        out.slice(-tail)
      );
    })
    .join('\n');
}

/** Registers, in a test, printing {@link serverReport} to stderr if the test fails. */
export function reportServersOnFailure(): void {
  onTestFailed(async () => {
    // A server that has just died fails the test's request (ECONNRESET) before its exit is
    // reported and its last output read: both come soon after.
    await new Promise((r) => setTimeout(r, 1000));
    console.error(`The server processes of this test:\n${serverReport()}`);
  });
}

export function killAll(): void {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}

export const login = (port: number, username: string, password: string) =>
  fetch(`http://127.0.0.1:${port}/api/profile/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

/** Runs one statement on the PostgreSQL server as its admin (CREATE or DROP DATABASE). */
export async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** After a test of server processes: kills them, removes their data directory and database. */
export async function cleanUpProcesses(
  dataDir: string | undefined,
  dbName: string | undefined,
): Promise<void> {
  killAll();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (dbName) await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}
