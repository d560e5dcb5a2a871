import type { Folder, Video, VideoTree } from '@logo-review/contract';

/** Every video of the tree, root and nested. */
export function flattenVideos(tree: VideoTree | undefined): Video[] {
  if (!tree) return [];
  const out: Video[] = [...tree.videos];
  const walk = (folders: Folder[]) =>
    folders.forEach((f) => {
      out.push(...f.videos);
      walk(f.folders);
    });
  walk(tree.folders);
  return out;
}

/** Every folder of the tree, depth first. */
export function flattenFolders(tree: VideoTree | undefined): Folder[] {
  if (!tree) return [];
  const out: Folder[] = [];
  const walk = (folders: Folder[]) =>
    folders.forEach((f) => {
      out.push(f);
      walk(f.folders);
    });
  walk(tree.folders);
  return out;
}

/** The folders from the root down to `folderId` (empty for the root or an unknown id). */
export function folderChain(tree: VideoTree | undefined, folderId: number | null): Folder[] {
  if (!tree || folderId === null) return [];
  const find = (folders: Folder[], trail: Folder[]): Folder[] | null => {
    for (const f of folders) {
      const next = [...trail, f];
      if (f.id === folderId) return next;
      const deeper = find(f.folders, next);
      if (deeper) return deeper;
    }
    return null;
  };
  return find(tree.folders, []) ?? [];
}

/** Spec: Duration is frames divided by fps; shown as h:mm:ss or m:ss. */
export function formatDuration(frames: number, fps: number): string {
  if (!fps || !Number.isFinite(fps) || fps <= 0) return '-';
  const total = Math.round(frames / fps);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A video with the slash path of the folder that holds it ('/' at the root). */
export interface LocatedVideo {
  video: Video;
  path: string;
}

/**
 * The search across the whole library: every video whose name holds `search` (case-insensitive),
 * in every folder, with its folder's path; sorted by name, then path. An empty search finds nothing.
 */
export function searchLibrary(tree: VideoTree | undefined, search: string): LocatedVideo[] {
  const needle = search.trim().toLowerCase();
  if (!tree || !needle) return [];
  const out: LocatedVideo[] = [];
  const take = (videos: Video[], path: string) => {
    for (const video of videos) if (video.name.toLowerCase().includes(needle)) out.push({ video, path });
  };
  take(tree.videos, '/');
  flattenFolders(tree).forEach((f) => take(f.videos, f.path));
  return out.sort((a, b) => a.video.name.localeCompare(b.video.name) || a.path.localeCompare(b.path));
}

/** '1 detection', '12 detections'. */
export function detectionCount(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'detection' : 'detections'}`;
}
