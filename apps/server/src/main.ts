import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { closeContext, createContext } from './server.ts';

/** Starts the API, the worker, or both (ROLE=all, the default) in this process. */
async function main() {
  const config = loadConfig();
  if (config.role === 'api' && !config.databaseUrl) {
    console.warn(
      "ROLE=api on the embedded database: no process can run jobs (the database is this process's alone).",
    );
  }
  const ctx = await createContext(config);
  let close = async () => closeContext(ctx);
  if (config.role !== 'worker') {
    const app = await buildApp(ctx, { logger: true });
    await app.listen({ port: config.port, host: config.host });
    console.log(
      `Logo review is running on http://localhost:${config.port}/ (data in ${config.dataDir}, ${ctx.db.kind})`,
    );
    close = async () => {
      await app.close();
      await closeContext(ctx);
    };
  } else {
    console.log(`worker started (${ctx.db.kind})`);
  }
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) process.exit(1);
      stopping = true;
      close().then(
        () => process.exit(0),
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
