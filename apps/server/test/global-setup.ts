import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config.ts';
import { closeContext, createContext } from '../src/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** Where the security suite counts its cases (security/ledger.ts). */
    securityLedger: string;
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
  const ledger = path.join(dir, 'security-ledger.tsv');
  writeFileSync(ledger, '');
  project.provide('securityLedger', ledger);
  return () => {
    const lines = readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
    const tried = lines.filter((l) => l.startsWith('tried\t')).length;
    const held = lines.filter((l) => l.startsWith('held\t')).length;
    if (tried > 0) console.log(`security: ${tried} cases tried, ${held} held`);
    rmSync(dir, { recursive: true, force: true });
  };
}
