import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './server-process.ts';

/**
 * Builds the web app into a private temporary folder and returns it (serve it with WEB_DIST).
 * Private, so a build running elsewhere in the working tree cannot swap the files under the server.
 */
export function buildWebPrivately(prefix = 'logo-review-web-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  execFileSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: path.join(REPO_ROOT, 'apps/web'),
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test; the build must be a production one.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return dir;
}
