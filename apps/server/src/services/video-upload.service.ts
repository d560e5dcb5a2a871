import { LIMITS } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { probeUpload } from '../media/ffprobe.ts';
import { libraryRepository as repo } from '../repositories/library.repository.ts';
import { assertRefs } from '../api/refs.ts';
import { optionalIdField, textField } from '../api/multipart.ts';
import { queueProbed } from './library.service.ts';

/**
 * What `POST /api/videos/create/` takes besides the file (name, folder, project), checked the
 * same way for a multipart upload and for a resumable (tus) upload's metadata.
 */
export interface VideoFields {
  name: string;
  folder: number | null;
  project: number | null;
}

export async function readVideoFields(
  ctx: AppContext,
  org: number,
  fields: Record<string, string>,
): Promise<VideoFields> {
  const name = textField(fields, 'name', { required: true, max: LIMITS.nameMax })!;
  const folder = optionalIdField(fields, 'folder');
  const project = optionalIdField(fields, 'project');
  await assertRefs(ctx.db, org, 'folders', [folder], 'folder');
  await assertRefs(ctx.db, org, 'projects', [project], 'project');
  return { name, folder, project };
}

/**
 * Turns a stored upload into a video: probed with ffprobe (a file that is no readable video is
 * refused with 400 before any row exists), inserted, and its analysis queued. The caller owns
 * the file (and removes it when this throws) until `owned` is called: from then on the row does.
 */
export async function createVideoFromFile(
  ctx: AppContext,
  org: number,
  fields: VideoFields,
  file: { rel: string; fileName: string; size: number; sha256: string },
  owned: (videoId: number) => void | Promise<void> = () => undefined,
): Promise<number> {
  if (file.size === 0) throw badRequest('videoFile: is required.');
  const probe = await probeUpload(ctx.storage.resolve(file.rel)).catch((err: Error) => {
    throw badRequest(`videoFile: ${err.message}`);
  });
  const id = await repo.insertVideo(ctx.db, org, {
    name: fields.name,
    folder_id: fields.folder,
    project_id: fields.project,
    file_name: file.fileName,
    stored_path: file.rel,
    size: file.size,
    content_sha256: file.sha256,
  });
  await owned(id);
  await queueProbed(ctx, org, id, probe);
  return id;
}
