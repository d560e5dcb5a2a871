import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

/**
 * The security suite's count of cases: each case is an attack tried against the server; it held
 * when every assertion about it passed. The lines go to one file per test run, which the global
 * teardown sums up ("security: N cases tried, N held").
 */
export async function attack(name: string, run: () => Promise<void>): Promise<void> {
  const file = inject('securityLedger');
  appendFileSync(file, `tried\t${name}\n`);
  await run();
  appendFileSync(file, `held\t${name}\n`);
}
