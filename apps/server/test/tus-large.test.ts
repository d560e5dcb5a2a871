import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  createReadStream,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { smallVideo } from './fixtures.ts';
import { TEST_DB } from './harness.ts';
import {
  freePort,
  killAll,
  LIFTOFF_ONLY,
  login,
  startServer,
  type ServerProcess,
} from './process-harness.ts';

/**
 * [1 GiB] The resumable upload of a file over 1 GiB, through @tus/server in a server process of
 * its own (so its memory is the server's alone) and tus-js-client, the library the web app uses,
 * with the web app's retry delays.
 *
 * These run once per CI run, on the embedded-database pass: they exercise the upload path, which
 * is the same on both databases (tus-upload.test.ts covers the video it makes on both). Each
 * takes 20-40 s on a busy 2-core machine. Leave them out locally with `-t` or by file.
 */
const SIZE = 1024 ** 3 + 1024 * 1024; // just over 1 GiB
const MiB = 1024 * 1024;
/**
 * Growth of the server's RSS allowed while 1 GiB goes through it: a quarter of the file, which any
 * design that holds the upload in memory fails. The upload path grows it by 30-75 MiB on Node 20
 * and 70-130 MiB on Node 24 (v24.21.0).
 */
const RSS_BOUND = 256 * MiB;
/**
 * The measured servers keep the database's Wasm on Liftoff ({@link LIFTOFF_ONLY}): on Node 24 the
 * optimizing compiler's memory for the database's SQL parser would land during the first upload,
 * and it has nothing to do with uploads. What is measured is the upload path.
 */
const NODE_ARGS = LIFTOFF_ONLY;

const work = mkdtempSync(path.join(os.tmpdir(), 'lr-tus-large-'));
afterAll(() => {
  killAll();
  rmSync(work, { recursive: true, force: true });
});

/**
 * A real MP4 (ffprobe reads it) over 1 GiB, made in a moment: the 2-second clip, then a 'free'
 * box that runs to the end. The box is sparse, with 32 random bytes every 16 MiB so that a
 * byte written at a wrong offset would change the file's hash.
 */
function bigVideo(file: string): string {
  const head = smallVideo();
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, head, 0, head.length, 0);
    const box = Buffer.alloc(8);
    box.writeUInt32BE(SIZE - head.length, 0);
    box.write('free', 4, 'latin1');
    writeSync(fd, box, 0, 8, head.length);
    for (let at = 16 * MiB; at < SIZE - 32; at += 16 * MiB) writeSync(fd, randomBytes(32), 0, 32, at);
    ftruncateSync(fd, SIZE);
  } finally {
    closeSync(fd);
  }
  return file;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 4 * MiB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Resident memory of a process, sampled every 50 ms until stopped. */
function sampleRss(pid: number) {
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0; // the process has exited
    }
  };
  const base = read();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, read())), 50);
  return {
    base,
    stop: () => {
      clearInterval(timer);
      return { base, peak, growth: peak - base };
    },
  };
}

/** A server process on an embedded database copied from the migrated template (fast start). */
async function startOn(dataDir: string, port: number): Promise<ServerProcess> {
  return startServer(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: 'admin-password-1',
    },
    NODE_ARGS,
  );
}

function newDataDir(name: string): string {
  const dir = path.join(work, name);
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}

async function tokenOf(port: number): Promise<string> {
  return ((await (await login(port, 'admin', 'admin-password-1')).json()) as { token: string }).token;
}

type UploadOptions = ConstructorParameters<typeof tus.Upload>[1];

/** tus-js-client's URL storage for Node.js (exported, though its typings leave it out). */
const { FileUrlStorage } = tus as unknown as {
  FileUrlStorage: new (file: string) => NonNullable<UploadOptions['urlStorage']>;
};

/** The web app's retry delays (apps/web/src/api/upload-video.ts). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 10000, 20000, 30000, 60000];

interface Run {
  patchOffsets: number[];
  videoId: number;
  uploadUrl: string;
}

function upload(
  file: string,
  endpoint: string,
  token: string,
  extra: Partial<UploadOptions> = {},
  start = true,
): { done: Promise<Run>; upload: tus.Upload } {
  const patchOffsets: number[] = [];
  let u!: tus.Upload;
  const done = new Promise<Run>((resolve, reject) => {
    u = new tus.Upload(createReadStream(file) as never, {
      endpoint,
      retryDelays: RETRY_DELAYS,
      metadata: { name: 'Whole match', filename: 'match.mp4', folder: '' },
      headers: { Authorization: `Token ${token}` },
      onBeforeRequest(req) {
        if (req.getMethod() === 'PATCH') patchOffsets.push(Number(req.getHeader('Upload-Offset')));
      },
      onSuccess: ({ lastResponse }) =>
        resolve({
          patchOffsets,
          videoId: Number(lastResponse.getHeader('Video-Id')),
          uploadUrl: u.url!,
        }),
      onError: reject,
      ...extra,
    });
  });
  if (start) u.start();
  return { done, upload: u };
}

let sourceSha: string | undefined;
async function expectVideo(port: number, token: string, run: Run, source: string, dataDir: string) {
  const v = (await (
    await fetch(`http://127.0.0.1:${port}/api/videos/${run.videoId}/`, {
      headers: { authorization: `Token ${token}` },
    })
  ).json()) as { name: string; size: number; status: string; fps: number; file_name: string };
  expect(v).toMatchObject({ name: 'Whole match', size: SIZE, file_name: 'match.mp4', fps: 10 });
  // Its analysis was queued (the 2-second clip may be analysed already).
  expect(['QUEUED', 'PROCESSING', 'OK']).toContain(v.status);
  // Byte for byte the source: the resumed part was appended at the right offset.
  const id = new URL(run.uploadUrl).pathname.split('/').pop()!;
  const stored = path.join(dataDir, 'files', 'orgs', '1', 'videos', `${id}.mp4`);
  expect(statSync(stored).size).toBe(SIZE);
  sourceSha ??= await sha256Of(source);
  expect(await sha256Of(stored)).toBe(sourceSha);
}

describe.skipIf(TEST_DB === 'postgres')(
  '[1 GiB] resumable upload (runs on the embedded-database pass only: the upload path does not touch the database)',
  () => {
    let made: string | undefined;
    const sourceFile = () => (made ??= bigVideo(path.join(work, 'match.mp4')));

    it('resumes where it stopped after the connection drops, with the server memory flat', async () => {
      const source = sourceFile();
      const dataDir = newDataDir('dropped');
      const port = await freePort();
      const server = await startOn(dataDir, port);
      const token = await tokenOf(port);

      // A proxy that cuts the connection once, after 400 MiB have gone through it.
      let forwarded = 0;
      let cut = false;
      const proxy = net.createServer((client) => {
        const up = net.connect(port, '127.0.0.1');
        client.on('data', (d: Buffer) => {
          forwarded += d.length;
          if (!cut && forwarded > 400 * MiB) {
            cut = true;
            client.destroy();
            up.destroy();
            return;
          }
          if (!up.write(d)) client.pause();
        });
        up.on('drain', () => client.resume());
        up.pipe(client);
        client.on('error', () => up.destroy());
        up.on('error', () => client.destroy());
        client.on('close', () => up.destroy());
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      const proxyPort = (proxy.address() as net.AddressInfo).port;

      const rss = sampleRss(server.child.pid!);
      const started = Date.now();
      const { done } = upload(source, `http://127.0.0.1:${proxyPort}/api/videos/uploads/`, token);
      const run = await done;
      const mem = rss.stop();
      proxy.close();
      console.log(
        `[1 GiB, dropped connection] ${((Date.now() - started) / 1000).toFixed(1)} s; PATCH offsets ${run.patchOffsets.map((o) => (o / MiB).toFixed(0) + ' MiB').join(', ')}; server RSS ${(mem.base / MiB).toFixed(0)} -> peak ${(mem.peak / MiB).toFixed(0)} MiB`,
      );

      expect(cut).toBe(true);
      // Two PATCHes: from 0, then from where the server's HEAD said the bytes stopped.
      expect(run.patchOffsets).toHaveLength(2);
      expect(run.patchOffsets[0]).toBe(0);
      expect(run.patchOffsets[1]).toBeGreaterThan(300 * MiB);
      expect(run.patchOffsets[1]).toBeLessThanOrEqual(400 * MiB);
      // Not sent again from the start: about the file plus the part lost in flight.
      expect(forwarded).toBeLessThan(SIZE + 120 * MiB);
      expect(mem.growth).toBeLessThan(RSS_BOUND);
      await expectVideo(port, token, run, source, dataDir);
      server.child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('resumes where it stopped after the server restarts and the client starts again from its stored fingerprint, memory flat', async () => {
      const source = sourceFile();
      const dataDir = newDataDir('restart');
      const port = await freePort();
      let server = await startOn(dataDir, port);
      const token = await tokenOf(port);
      const endpoint = `http://127.0.0.1:${port}/api/videos/uploads/`;
      // What a browser keeps in localStorage across a page reload.
      const urlStorage = new FileUrlStorage(path.join(work, 'tus-urls.json'));
      const started = Date.now();

      // First attempt: the server is killed (SIGKILL) once 450 MiB have arrived, and this client
      // gives up (a closed tab).
      let rss = sampleRss(server.child.pid!);
      const first = upload(source, endpoint, token, {
        urlStorage,
        retryDelays: null,
        onProgress: (sent) => {
          if (sent > 450 * MiB && server.child.exitCode === null) server.child.kill('SIGKILL');
        },
      });
      await expect(first.done).rejects.toThrow();
      const mem1 = rss.stop();
      await new Promise((r) => (server.child.exitCode === null ? server.child.once('exit', r) : r(0)));

      // The server comes back on the same data; a new client finds the upload by its fingerprint.
      server = await startOn(dataDir, port);
      rss = sampleRss(server.child.pid!);
      const second = upload(source, endpoint, token, { urlStorage, removeFingerprintOnSuccess: true }, false);
      const previous = await second.upload.findPreviousUploads();
      expect(previous).toHaveLength(1);
      second.upload.resumeFromPreviousUpload(previous[0]);
      second.upload.start();
      const run = await second.done;
      const mem2 = rss.stop();
      console.log(
        `[1 GiB, server restart] ${((Date.now() - started) / 1000).toFixed(1)} s; resumed at ${(run.patchOffsets[0] / MiB).toFixed(0)} MiB; server RSS before the kill ${(mem1.base / MiB).toFixed(0)} -> peak ${(mem1.peak / MiB).toFixed(0)} MiB, after the restart ${(mem2.base / MiB).toFixed(0)} -> peak ${(mem2.peak / MiB).toFixed(0)} MiB`,
      );

      expect(run.uploadUrl).toBe(previous[0].uploadUrl);
      expect(run.patchOffsets).toHaveLength(1);
      expect(run.patchOffsets[0]).toBeGreaterThan(300 * MiB);
      expect(mem1.growth).toBeLessThan(RSS_BOUND);
      expect(mem2.growth).toBeLessThan(RSS_BOUND);
      // Done: the stored fingerprint is dropped (tus-js-client does it just after onSuccess).
      await expect.poll(() => urlStorage.findAllUploads()).toEqual([]);
      await expectVideo(port, token, run, source, dataDir);
      server.child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    });
  },
);
