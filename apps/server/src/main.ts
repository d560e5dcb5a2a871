import type { FastifyInstance } from 'fastify';
import { buildApp, buildOpsApp } from './app.ts';
import { loadConfig } from './config.ts';
import { closeContext, createContext } from './server.ts';
import { engineThreadsEnded } from './jobs/engine-client.ts';

/** Starts the API, the worker, or both (ROLE=all, the default) in this process. */
async function main() {
  const config = loadConfig();
  if (config.role === 'api' && !config.databaseUrl) {
    console.warn(
      "ROLE=api on the embedded database: no process can run jobs (the database is this process's alone).",
    );
  }
  const ctx = await createContext(config);
  const listeners: FastifyInstance[] = [];
  if (config.role !== 'worker') {
    const app = await buildApp(ctx, { logger: true });
    await app.listen({ port: config.port, host: config.host });
    listeners.push(app);
    console.log(
      `Logo review is running on http://localhost:${config.port}/ (data in ${config.dataDir}, ${ctx.db.kind})`,
    );
  }
  if (config.opsPort !== undefined) {
    // A worker-only process has no other listener; any process may keep these off its public port.
    const ops = await buildOpsApp(ctx, { logger: true });
    await ops.listen({ port: config.opsPort, host: config.host });
    listeners.push(ops);
    console.log(
      `health, readiness and metrics on http://localhost:${config.opsPort}/health, /ready, /metrics`,
    );
  }
  if (config.role === 'worker') console.log(`worker started (${ctx.db.kind})`);

  // Graceful: no new HTTP requests (those under way finish), no new jobs, running jobs get the
  // grace period and are then handed back to the queue, the database is closed, exit 0.
  // A second signal exits at once.
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) process.exit(1);
      stopping = true;
      console.log(`${sig}: shutting down (running jobs get up to ${config.shutdownGraceSeconds} s)`);
      (async () => {
        for (const l of listeners) await l.close();
        await closeContext(ctx);
        // a released job's engine thread ends at its task's next step (see runEngineTask)
        await engineThreadsEnded();
      })().then(
        () => {
          console.log('shut down cleanly');
          process.exit(0);
        },
        (err) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err) => {
  console.error(`Could not start: ${(err as Error).message}`);
  process.exit(1);
});
