import path from 'node:path';
import { JOBS, VIDEO_STATUS, type Folder, type Video, type VideoTree } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { posterPath } from '../media/thumbnails.ts';
import type { VideoInfo } from '@logo-review/engine';
import { libraryRepository as repo, type VideoRow } from '../repositories/library.repository.ts';

export function toVideo(ctx: AppContext, v: VideoRow): Video {
  const ext = path.extname(v.stored_path) || '.mp4';
  return {
    id: v.id,
    name: v.name,
    status: v.status,
    status_reason: v.status_reason,
    progress: Math.round(v.progress),
    request_hash: v.request_hash,
    frames: v.frames,
    fps: v.fps,
    duration: v.duration,
    width: v.width,
    height: v.height,
    project: v.project_id ? { id: v.project_id, name: v.project_name ?? '' } : null,
    folder: v.folder_id,
    video_file: ctx.signer.sign(`/media/videos/${v.id}/video${ext}`),
    file_name: v.file_name,
    size: Number(v.size),
    thumbnails: v.thumbnails
      ? {
          url: ctx.signer.sign(`/media/thumbnails/${v.id}/sprite.jpg`),
          interval: v.thumbnails.interval,
          columns: v.thumbnails.columns,
          count: v.thumbnails.count,
          tile_width: v.thumbnails.tile_width,
          tile_height: v.thumbnails.tile_height,
        }
      : null,
    poster_url: v.thumbnails ? ctx.signer.sign(`/media/posters/${v.id}/poster.jpg`) : null,
    created_at: new Date(v.created_at).toISOString(),
    detections_total: Number(v.detections_total),
    detections_reviewed: Number(v.detections_reviewed),
  };
}

/** The organization's folders as a tree with their videos; root videos beside the root folders. */
export async function videoTree(ctx: AppContext, org: number): Promise<VideoTree> {
  const [folders, videos] = await Promise.all([repo.folders(ctx.db, org), repo.videos(ctx.db, org)]);
  const nodes = new Map<number, Folder>();
  for (const f of folders)
    nodes.set(f.id, { id: f.id, name: f.name, path: '', parent: f.parent_id, folders: [], videos: [] });
  const roots: Folder[] = [];
  for (const f of folders) {
    const node = nodes.get(f.id)!;
    const parent = f.parent_id === null ? undefined : nodes.get(f.parent_id);
    if (parent) parent.folders.push(node);
    else roots.push(node);
  }
  const setPaths = (list: Folder[], prefix: string) => {
    for (const f of list) {
      f.path = `${prefix}/${f.name}`;
      setPaths(f.folders, f.path);
    }
  };
  setPaths(roots, '');
  const rootVideos: Video[] = [];
  for (const v of videos) {
    const dto = toVideo(ctx, v);
    const folder = v.folder_id === null ? undefined : nodes.get(v.folder_id);
    if (folder) folder.videos.push(dto);
    else rootVideos.push(dto);
  }
  return { folders: roots, videos: rootVideos };
}

/** After an upload that ffprobe read: its facts stored, and its analysis queued. */
export async function queueProbed(
  ctx: AppContext,
  org: number,
  videoId: number,
  probe: VideoInfo,
): Promise<void> {
  await repo.setProbe(ctx.db, videoId, probe);
  await repo.setStatus(ctx.db, videoId, { status: VIDEO_STATUS.QUEUED, status_reason: '', progress: 0 });
  await ctx.jobs.send(JOBS.analyzeVideo, { organizationId: org, videoId });
}

export async function deleteVideo(ctx: AppContext, org: number, v: VideoRow): Promise<void> {
  const renders = await repo.deleteVideo(ctx.db, org, v.id); // detections go with it (ON DELETE CASCADE)
  await Promise.all([
    ctx.storage.remove(v.stored_path),
    ctx.storage.remove(v.thumbnails?.path),
    ctx.storage.remove(v.thumbnails && posterPath(v.thumbnails.path)),
    ...renders.map((r) => ctx.storage.remove(r)),
  ]);
}
