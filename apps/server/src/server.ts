import { randomBytes } from 'node:crypto';
import { migrate, openDatabase } from '@logo-review/db';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { JobQueue } from './jobs/queue.ts';
import { startWorker } from './jobs/worker.ts';
import { MediaSigner } from './media/signer.ts';
import { Metrics } from './ops/metrics.ts';
import { Storage } from './media/storage.ts';
import { INDEX_FORMAT } from '@logo-review/engine';
import { accountsRepository } from './repositories/accounts.repository.ts';
import { brandsRepository } from './repositories/brands.repository.ts';
import { requestActivation } from './services/brands.service.ts';
import { libraryRepository } from './repositories/library.repository.ts';
import { placementsRepository } from './repositories/placements.repository.ts';
import { ensureFirstUser } from './services/accounts.service.ts';
import { ReportThreads } from './reports/report-threads.ts';
import { DetectionJsonCache } from './repositories/detection-json-cache.ts';

const STARTUP_LOCK_KEY = 727_274_002;

/** Opens the database, migrates it, and builds the shared context (queue started, worker optional). */
export async function createContext(
  config: Config,
  log: (msg: string) => void = console.log,
): Promise<AppContext> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    // Everything up to a started queue runs under one lock: servers starting together take turns
    // (pg-boss's own schema set-up and the first user would otherwise race and deadlock).
    return await db.withLock(STARTUP_LOCK_KEY, async () => {
      const applied = await migrate(db);
      if (applied.length) log(`database migrated: ${applied.join(', ')}`);
      const secret = await accountsRepository.ensureSetting(
        db,
        'media_secret',
        randomBytes(32).toString('hex'),
      );
      for (const org of await accountsRepository.allOrganizationIds(db))
        await placementsRepository.ensureAutomatic(db, org);
      const first = await ensureFirstUser(db, config.adminUsername, config.adminPassword);
      if (first.created) {
        log(
          first.generatedPassword
            ? `created organization 'My organization' and user '${config.adminUsername}' with password: ${first.generatedPassword}`
            : `created organization 'My organization' and user '${config.adminUsername}' (password from ADMIN_PASSWORD)`,
        );
      }
      const metrics = new Metrics();
      const jobs = new JobQueue({
        db,
        databaseUrl: config.databaseUrl,
        expireSeconds: config.jobExpireSeconds,
        leaseSeconds: config.jobLeaseSeconds,
        metrics,
        log,
      });
      metrics.watchQueue(() => jobs.counts());
      await jobs.start();
      if (config.role !== 'api') {
        // The embedded database is this process's alone: what a killed predecessor left running
        // (jobs and the analysis leases of videos) starts again now.
        const left = await jobs.recoverAfterRestart();
        if (left > 0) await libraryRepository.releaseAllAnalyses(db);
      }
      const ctx: AppContext = {
        config,
        db,
        storage: new Storage(config.dataDir),
        signer: new MediaSigner(secret),
        jobs,
        metrics,
        reports: new ReportThreads({ threads: config.reportThreads }),
        windowCache:
          config.role !== 'worker' && config.windowCacheBytes > 0
            ? new DetectionJsonCache(config.windowCacheBytes)
            : null,
      };
      // After an engine upgrade, indexes of an older format are rebuilt (analyses skip them meanwhile).
      for (const b of await brandsRepository.staleIndexes(db, INDEX_FORMAT)) {
        await requestActivation(ctx, b.organization_id, b.id);
      }
      if (config.role !== 'api') await startWorker(ctx);
      return ctx;
    });
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** Stops the worker (running jobs get the configured grace period) and the queue, then closes the database. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.jobs.stop(ctx.config.shutdownGraceSeconds * 1000);
  await ctx.reports.close();
  await ctx.db.close();
}
