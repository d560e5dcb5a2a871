import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { displayFileName } from '../media/images.ts';
import { createVideoFromFile, readVideoFields, type VideoFields } from '../services/video-upload.service.ts';
import { orgOf } from './auth-hook.ts';

/**
 * Resumable video uploads with the tus protocol (https://tus.io/protocols/resumable-upload),
 * served by @tus/server with @tus/file-store under DATA_DIR/files/uploads.
 *
 * - POST /api/videos/uploads/ creates an upload. Its Upload-Metadata carries what
 *   POST /api/videos/create/ takes: name, folder, project (and filename, the file's name); they
 *   are checked at once, with the same messages, so a bad form fails before any byte is sent.
 * - PATCH /api/videos/uploads/{id} appends bytes; HEAD tells how many arrived, so a client resumes
 *   after a dropped connection or a server restart.
 * - When the last byte arrives the file becomes a video exactly as the multipart route makes one
 *   (probed with ffprobe, refused with 400 when it is no video, its analysis queued), is moved (not
 *   copied) to the organization's videos, and the answer carries its id in `Video-Id`.
 *
 * Every call needs the same Authorization as the rest of /api, and an upload is only seen by
 * its organization. Uploads not finished UPLOAD_EXPIRE_HOURS after they began are removed.
 * The lock that serialises requests on one upload is in memory: one API process serves the
 * uploads (or a load balancer keeps a client on one process).
 */
export const TUS_PATH = '/api/videos/uploads';

const ID = /^[0-9a-f]{32}$/;
/** Metadata keys the server sets; a client's values for them are ignored. */
const ORG_KEY = 'organization';
/** Some room beside an upload's bytes: a disk that cannot hold it plus this is full. */
const DISK_MARGIN = 16 * 1024 * 1024;

/** The error body of every answer is JSON {detail}, as in the rest of the API. */
const tusError = (status: number, detail: string) => ({
  status_code: status,
  body: JSON.stringify({ detail }),
});
const diskFull = () =>
  tusError(
    507,
    "videoFile: the server's disk is full, the upload was stopped and its partial file removed. Please try again later.",
  );
const isDiskFull = (err: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException | undefined)?.code ?? '');

function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(1)} ${units[i]}`;
}

/**
 * The file store, with one change: a write that fails because the disk is full removes the
 * partial upload and says so (507), where @tus/file-store reports any failure as a generic 500.
 */
class VideoFileStore extends FileStore {
  override async write(readable: IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        received += chunk.length;
        cb(null, chunk);
      },
    });
    try {
      await pipeline(
        readable,
        counter,
        createWriteStream(path.join(this.directory, id), { flags: 'r+', start: offset }),
      );
    } catch (err) {
      if (isDiskFull(err)) {
        await this.remove(id).catch(() => undefined);
        throw diskFull();
      }
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return offset + received;
  }
}

/** Everything of a request that the tus hooks need and the web Request does not carry. */
interface CallInfo {
  org: number;
  req: FastifyRequest;
}

export async function registerTusUploads(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const directory = ctx.storage.resolve('uploads');
  const expireMs = ctx.config.uploadExpireHours * 3600_000;
  const store = new VideoFileStore({ directory, expirationPeriodInMilliseconds: expireMs });
  const calls = new WeakMap<Request, CallInfo>();
  const callOf = (req: Request): CallInfo => {
    const c = calls.get(req);
    if (!c) throw tusError(401, 'Authentication credentials were not provided.');
    return c;
  };
  /** A finished upload's record: HEAD answers "complete" for it while it lasts. */
  const donePath = (id: string) => path.join(directory, `${id}.done`);
  const finishing = new Map<string, Promise<number>>();

  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    // Read at each request, so the setting can be changed on a running server's config.
    maxSize: () => ctx.config.uploadMaxBytes,
    // Same-origin API: no CORS answer for other sites.
    allowedOrigins: [],
    async onUploadCreate(req, upload) {
      const { org } = callOf(req);
      const meta = strings(upload.metadata);
      await readVideoFields(ctx, org, meta).catch(rethrowHttp);
      if (upload.size === 0) throw tusError(400, 'videoFile: is required.');
      await mkdir(directory, { recursive: true });
      const free = await statfs(directory).then((s) => s.bavail * s.bsize);
      if (upload.size !== undefined && upload.size + DISK_MARGIN > free) throw diskFull();
      return { metadata: { ...meta, [ORG_KEY]: String(org) } };
    },
    async onUploadFinish(req, upload) {
      const { org } = callOf(req);
      const videoId = await finish(org, upload.id);
      return { status_code: 204, headers: { 'Video-Id': String(videoId) } };
    },
    async onResponseError(req, err) {
      const e = err as Error & { status_code?: number; body?: string };
      if (isDiskFull(err)) {
        // The write's own stream error can overtake VideoFileStore's answer: same outcome.
        const id = new URL(req.url).pathname.split('/').pop() ?? '';
        if (ID.test(id)) await store.remove(id).catch(() => undefined);
        return diskFull();
      }
      if (e.body?.startsWith('{')) return { status_code: e.status_code ?? 500, body: e.body };
      if (e === ERRORS.ERR_MAX_SIZE_EXCEEDED)
        return tusError(
          413,
          `videoFile: the file is too large (at most ${formatBytes(ctx.config.uploadMaxBytes)}).`,
        );
      if (e.status_code && e.body) return tusError(e.status_code, e.body.trim());
      app.log.error({ err }, 'resumable upload failed');
      return tusError(500, 'Internal server error.');
    },
  });

  /**
   * Makes the video of a complete upload, once: concurrent or repeated calls for one upload
   * (the last PATCH, a HEAD after a lost answer or a crash) share the work or its result.
   * Steps that may be redone after a crash are: the checks, the move to the videos folder (to a
   * path named after the upload, so a second attempt finds it), the row (found by that path).
   */
  function finish(org: number, id: string): Promise<number> {
    let p = finishing.get(id);
    if (!p) {
      p = finishOnce(org, id).finally(() => finishing.delete(id));
      finishing.set(id, p);
    }
    return p;
  }

  async function finishOnce(org: number, id: string): Promise<number> {
    const done = await readDone(id);
    if (done) return done.videoId;
    const info = await store.configstore.get(id);
    if (!info) throw ERRORS.FILE_NOT_FOUND;
    const meta = strings(info.metadata);
    const fileName = displayFileName(meta.filename ?? '', 'video');
    const rel = path.posix.join('orgs', String(org), 'videos', `${id}${safeExt(fileName)}`);
    const src = path.join(directory, id);
    const dst = ctx.storage.resolve(rel);
    let file = src;
    try {
      if (!(await exists(src))) {
        if (!(await exists(dst))) throw ERRORS.FILE_NO_LONGER_EXISTS;
        file = dst; // moved by an attempt that did not get further
      }
      const size = (await stat(file)).size;
      if (size !== info.size) throw ERRORS.FILE_NO_LONGER_EXISTS;
      const fields: VideoFields = await readVideoFields(ctx, org, meta);
      const sha256 = await sha256Of(file);
      await mkdir(path.dirname(dst), { recursive: true });
      if (file === src) await rename(src, dst);
      file = dst;
      const [row] = await ctx.db.query<{ id: number }>(
        'SELECT id FROM videos WHERE organization_id = $1 AND stored_path = $2',
        [org, rel],
      );
      const videoId =
        row?.id ?? (await createVideoFromFile(ctx, org, fields, { rel, fileName, size, sha256 }));
      await writeFile(donePath(id), JSON.stringify({ org, videoId, size, at: new Date().toISOString() }));
      await store.configstore.delete(id);
      return videoId;
    } catch (err) {
      // A refused file leaves nothing behind: no row, no file, no upload to resume.
      if (err instanceof HttpError) {
        await Promise.all([rm(src, { force: true }), rm(dst, { force: true })]);
        await store.configstore.delete(id);
      }
      throw rethrowHttpValue(err);
    }
  }

  async function readDone(id: string): Promise<{ org: number; videoId: number; size: number } | undefined> {
    try {
      return JSON.parse(await readFile(donePath(id), 'utf8')) as {
        org: number;
        videoId: number;
        size: number;
      };
    } catch {
      return undefined;
    }
  }

  /**
   * Abandoned uploads: @tus/file-store's expiration removes those begun more than
   * UPLOAD_EXPIRE_HOURS ago (their clients are told Upload-Expires); the records of finished
   * ones go after the same time.
   */
  async function sweep(): Promise<void> {
    try {
      const removed = await tus.cleanUpExpiredUploads();
      const now = Date.now();
      for (const name of await readdir(directory)) {
        if (!name.endsWith('.done')) continue;
        const s = await stat(path.join(directory, name)).catch(() => undefined);
        if (s && now - s.mtimeMs > expireMs) await rm(path.join(directory, name), { force: true });
      }
      if (removed > 0) app.log.info(`removed ${removed} abandoned upload(s)`);
    } catch (err) {
      app.log.error({ err }, 'sweeping abandoned uploads failed');
    }
  }
  const sweepEvery = Math.min(3600_000, Math.max(1000, expireMs / 4));
  const timer = setInterval(() => void sweep(), sweepEvery);
  timer.unref();
  void sweep();
  app.addHook('onClose', async () => clearInterval(timer));

  /** Who may touch an upload: its organization only; others are told it does not exist. */
  async function ownerCheck(org: number, id: string): Promise<boolean> {
    const info = await store.configstore.get(id).catch(() => undefined);
    if (info) return strings(info.metadata)[ORG_KEY] === String(org);
    return false;
  }

  async function handle(req: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) {
    const org = orgOf(req);
    const id = req.params.id;
    if (id !== undefined) {
      if (!ID.test(id)) return reply.code(404).send({ detail: 'Upload not found.' });
      if (req.method === 'HEAD') return sendTus(reply, await head(org, id, req));
      if (!(await ownerCheck(org, id))) return sendTus(reply, uploadNotFound());
    }
    return sendTus(reply, await tus.handleWeb(webRequest(req, org)));
  }

  /**
   * HEAD: a finished upload is answered by {@link headOfFinished} (its video made first), the
   * others by @tus/server. That one answers once it holds the upload's lock, which the last PATCH
   * lets go before it makes the video: a HEAD that came meanwhile would hear "complete" before the
   * video exists, or "gone" once the file has moved (and the client would send the file again,
   * as a second video). So only its answer that the upload goes on stands as it is; another is
   * asked again once the video being made is there.
   */
  async function head(org: number, id: string, req: FastifyRequest): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      const done = await headOfFinished(org, id);
      if (done) return done;
      if (!(await ownerCheck(org, id))) return uploadNotFound();
      const res = await tus.handleWeb(webRequest(req, org));
      const pending = finishing.get(id);
      if (attempt === 2 || (!pending && res.status === 200 && !isComplete(res))) return res;
      await pending?.catch(() => undefined);
    }
  }

  /** The request as @tus/server takes it (a web Request), its caller noted for the hooks. */
  function webRequest(req: FastifyRequest, org: number): Request {
    const hasBody = req.method === 'PATCH' || req.method === 'POST';
    const webReq = new Request(`http://localhost${req.url}`, {
      method: req.method,
      headers: headersOf(req.raw),
      body: hasBody
        ? (Readable.toWeb(req.raw, {
            strategy: new ByteLengthQueuingStrategy({ highWaterMark: 4 * 1024 * 1024 }),
          }) as ReadableStream)
        : undefined,
      duplex: 'half',
    } as RequestInit);
    calls.set(webReq, { org, req });
    return webReq;
  }

  /**
   * HEAD of an upload whose bytes have all arrived: it is made a video first if that has not
   * happened (its last PATCH's answer was lost, or the server stopped while finishing), so a
   * client that then reports success has a video behind it.
   */
  async function headOfFinished(org: number, id: string): Promise<Response | undefined> {
    let done = await readDone(id);
    if (!done) {
      const info = await store.configstore.get(id).catch(() => undefined);
      if (!info || strings(info.metadata)[ORG_KEY] !== String(org) || info.size === undefined)
        return undefined;
      const size = await stat(path.join(directory, id))
        .then((s) => s.size)
        .catch(() => undefined);
      if (size !== info.size) return undefined;
      try {
        await finish(org, id);
      } catch (err) {
        const e = err as { status_code?: number; body?: string };
        if (e.status_code && e.body)
          return new Response(e.body, {
            status: e.status_code,
            headers: { 'Tus-Resumable': '1.0.0', 'content-type': 'application/json' },
          });
        throw err;
      }
      done = await readDone(id);
      if (!done) return undefined;
    }
    if (done.org !== org) return undefined;
    return new Response(null, {
      status: 200,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(done.size),
        'Upload-Length': String(done.size),
        'Video-Id': String(done.videoId),
        'Cache-Control': 'no-store',
      },
    });
  }

  await app.register(async (scope) => {
    // The body is the upload's bytes, streamed to disk by tus: no parser may read it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const opts = { schema: { hide: true } };
    for (const url of [`${TUS_PATH}/`, `${TUS_PATH}/:id`]) {
      scope.route({ method: ['POST', 'HEAD', 'PATCH', 'DELETE'], url, ...opts, handler: handle });
    }
  });
}

/** Another organization's upload, or none: told apart by no one. */
function uploadNotFound(): Response {
  return new Response(JSON.stringify({ detail: 'Upload not found.' }), {
    status: 404,
    headers: { 'Tus-Resumable': '1.0.0', 'content-type': 'application/json' },
  });
}

/** A HEAD answer saying that every byte has arrived. */
function isComplete(res: Response): boolean {
  const offset = res.headers.get('upload-offset');
  return offset !== null && offset === res.headers.get('upload-length');
}

async function sendTus(reply: FastifyReply, res: Response): Promise<FastifyReply> {
  reply.code(res.status);
  res.headers.forEach((value, key) => {
    if (key !== 'content-length') reply.header(key, value);
  });
  const body = res.body ? await res.text() : '';
  if (body.startsWith('{')) reply.type('application/json');
  return reply.send(body);
}

function headersOf(raw: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw.headers)) {
    if (v === undefined) continue;
    h.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return h;
}

function strings(meta: Upload['metadata']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

function safeExt(fileName: string): string {
  const ext = path.extname(fileName);
  return /^\.[a-z0-9]{1,8}$/i.test(ext) ? ext.toLowerCase() : '';
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** An HttpError (the API's validation) as the error object @tus/server answers with. */
function rethrowHttp(err: unknown): never {
  throw rethrowHttpValue(err);
}
function rethrowHttpValue(err: unknown): unknown {
  return err instanceof HttpError ? tusError(err.statusCode, err.message) : err;
}
