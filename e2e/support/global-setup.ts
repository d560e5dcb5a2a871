import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT, startServer, type RunningServer } from './server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    username: string;
    password: string;
  }
}

let server: RunningServer | undefined;

/** Builds the web app once, then starts one real server for every e2e file. */
export async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD) {
    // Vitest sets NODE_ENV=test; the build must be a production one (React's dev build is larger).
    execFileSync('npm', ['run', 'build', '-w', '@logo-review/web'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  server = await startServer();
  project.provide('baseURL', server.baseURL);
  project.provide('username', server.username);
  project.provide('password', server.password);
}

export async function teardown() {
  await server?.stop();
}
