import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config.ts';
import { closeContext, createContext } from '../src/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * A new PGlite data directory takes ~10 s to initialise; the tests copy one migrated template
 * (with the first-start admin and the job queue's schema) instead of each paying that.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lr-template-'));
  const ctx = await createContext(
    {
      ...loadConfig({}),
      dataDir: dir,
      databaseUrl: undefined,
      role: 'api',
      adminPassword: 'admin-password-1',
    },
    () => undefined,
  );
  await closeContext(ctx);
  project.provide('pgliteTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
