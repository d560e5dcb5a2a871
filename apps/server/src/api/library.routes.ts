import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { API, FolderCreateBody, IdBody, IdParams, LIMITS, VideoUpdateBody } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { displayFileName } from '../media/images.ts';
import { libraryRepository as repo } from '../repositories/library.repository.ts';
import { assertRefs } from './refs.ts';
import { deleteVideo, toVideo, videoTree } from '../services/library.service.ts';
import { createVideoFromFile, readVideoFields } from '../services/video-upload.service.ts';
import { orgOf } from './auth-hook.ts';
import { readMultipart, textField } from './multipart.ts';
import { errors, Ref, routes } from './route-kit.ts';

const Tree = Ref('VideoTree');

export const libraryRoutes = (ctx: AppContext) =>
  routes((app) => {
    async function checkRefs(org: number, folder: number | null, project: number | null | undefined) {
      await assertRefs(ctx.db, org, 'folders', [folder], 'folder');
      await assertRefs(ctx.db, org, 'projects', [project], 'project');
    }

    app.get(API.videos, { schema: { tags: ['videos'], response: { 200: Tree, ...errors } } }, async (req) =>
      videoTree(ctx, orgOf(req)),
    );

    app.get(
      '/api/videos/:id/',
      { schema: { tags: ['videos'], params: IdParams, response: { 200: Ref('Video'), ...errors } } },
      async (req) => {
        const v = await repo.video(ctx.db, orgOf(req), req.params.id);
        if (!v) throw notFound('Video');
        return toVideo(ctx, v);
      },
    );

    app.post(
      API.folder,
      { schema: { tags: ['videos'], body: FolderCreateBody, response: { 201: Tree, ...errors } } },
      async (req, reply) => {
        const org = orgOf(req);
        const name = req.body.name.trim();
        if (!name) throw badRequest('name: is required.');
        await assertRefs(ctx.db, org, 'folders', [req.body.parent], 'parent');
        if (await repo.folderNameTaken(ctx.db, org, req.body.parent, name)) {
          throw badRequest(`name: a folder named ${name} already exists here.`);
        }
        await repo.insertFolder(ctx.db, org, name, req.body.parent);
        return reply.code(201).send(await videoTree(ctx, org));
      },
    );

    app.delete(
      API.folder,
      { schema: { tags: ['videos'], body: IdBody, response: { 200: Tree, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const folder = await repo.folder(ctx.db, org, req.body.id);
        if (!folder) throw notFound('Folder');
        // A non-empty folder is refused rather than emptied: deleting videos is a deliberate act.
        const c = await repo.folderContents(ctx.db, org, folder.id);
        if (c.folders + c.videos > 0) {
          throw badRequest(
            `Folder ${folder.name} is not empty (${c.videos} videos, ${c.folders} folders): move or delete its contents first.`,
          );
        }
        await repo.deleteFolder(ctx.db, org, folder.id);
        return videoTree(ctx, org);
      },
    );

    app.post(
      API.videoCreate,
      {
        schema: {
          tags: ['videos'],
          description:
            'multipart/form-data: name, folder (id, empty for the root), project (optional), videoFile (the file; streamed to disk)',
          response: { 201: Ref('Video'), ...errors, 413: errors[400] },
        },
      },
      async (req, reply) => {
        const org = orgOf(req);
        let upload: { rel: string; size: number; sha256: string; fileName: string } | undefined;
        try {
          const fields = await readMultipart(req, {
            fileSize: ctx.config.uploadMaxBytes,
            files: 1,
            onFile: async (part) => {
              if (part.fieldname !== 'videoFile') {
                part.file.resume();
                throw badRequest(`${part.fieldname}: unexpected file field (the video goes in videoFile).`);
              }
              const fileName = displayFileName(part.filename, 'video');
              const rel = ctx.storage.newPath(org, 'videos', path.extname(fileName));
              upload = { rel, size: 0, sha256: '', fileName };
              const hash = createHash('sha256');
              const counter = new Transform({
                transform(chunk: Buffer, _enc, cb) {
                  hash.update(chunk);
                  upload!.size += chunk.length;
                  cb(null, chunk);
                },
              });
              await pipeline(part.file, counter, createWriteStream(ctx.storage.resolve(rel)));
              if (part.file.truncated) throw new HttpError(413, 'videoFile: the file is too large.');
              upload.sha256 = hash.digest('hex');
            },
          });
          // The order of the checks is the API's: name, then the file, then folder and project.
          textField(fields, 'name', { required: true, max: LIMITS.nameMax });
          if (!upload || upload.size === 0) throw badRequest('videoFile: is required.');
          const video = await readVideoFields(ctx, org, fields);
          const file = upload;
          const id = await createVideoFromFile(ctx, org, video, file, () => {
            upload = undefined; // the row owns the file now
          });
          return reply.code(201).send(toVideo(ctx, (await repo.video(ctx.db, org, id))!));
        } finally {
          if (upload) await ctx.storage.remove(upload.rel);
        }
      },
    );

    app.put(
      API.videoCreate,
      { schema: { tags: ['videos'], body: VideoUpdateBody, response: { 200: Tree, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const { id, name, folder, project } = req.body;
        if (!(await repo.video(ctx.db, org, id))) throw notFound('Video');
        if (!name.trim()) throw badRequest('name: is required.');
        await checkRefs(org, folder, project);
        await repo.updateVideo(ctx.db, org, id, {
          name: name.trim(),
          folder_id: folder,
          project_id: project,
        });
        return videoTree(ctx, org);
      },
    );

    app.delete(
      API.videoCreate,
      { schema: { tags: ['videos'], body: IdBody, response: { 200: Tree, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const v = await repo.video(ctx.db, org, req.body.id);
        if (!v) throw notFound('Video');
        await deleteVideo(ctx, org, v);
        return videoTree(ctx, org);
      },
    );
  });
