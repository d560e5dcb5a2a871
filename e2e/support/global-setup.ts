import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildWebPrivately } from './build-web.ts';
import { startServer, type RunningServer } from './server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    username: string;
    password: string;
    /** The private build the server serves. */
    webDist: string;
  }
}

let server: RunningServer | undefined;
let webDist: string | undefined;

/**
 * Builds the web app once into a private folder (so a build running elsewhere in the working tree
 * cannot swap the files under the server), then starts one real server for every e2e file.
 */
export async function setup(project: TestProject) {
  webDist = buildWebPrivately('logo-review-e2e-web-');
  server = await startServer({ env: { WEB_DIST: webDist } });
  project.provide('baseURL', server.baseURL);
  project.provide('username', server.username);
  project.provide('password', server.password);
  project.provide('webDist', webDist);
}

export async function teardown() {
  await server?.stop();
  if (webDist) rmSync(webDist, { recursive: true, force: true });
}
