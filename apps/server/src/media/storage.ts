import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

export type FileKind = 'videos' | 'logos' | 'renders' | 'thumbnails' | 'indexes' | 'tmp';

/**
 * Files under one root (DATA_DIR/files). Stored paths are relative and generated here
 * (never from user input), and every resolve checks that the result stays inside the root.
 */
export class Storage {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'files');
    mkdirSync(this.root, { recursive: true });
  }

  /** A new relative path for a file of this organization; its folder is created. */
  newPath(organizationId: number, kind: FileKind, ext: string): string {
    const safeExt = /^\.[a-z0-9]{1,8}$/i.test(ext) ? ext.toLowerCase() : '';
    const rel = path.posix.join('orgs', String(organizationId), kind, `${randomUUID()}${safeExt}`);
    mkdirSync(path.dirname(this.resolve(rel)), { recursive: true });
    return rel;
  }

  /** Absolute path of a stored relative path; throws when it would leave the root. */
  resolve(rel: string): string {
    const abs = path.resolve(this.root, rel);
    if (abs !== this.root && !abs.startsWith(this.root + path.sep))
      throw new Error(`Path escapes storage: ${rel}`);
    return abs;
  }

  async remove(rel: string | null | undefined): Promise<void> {
    if (!rel) return;
    await rm(this.resolve(rel), { force: true, recursive: true });
  }
}
