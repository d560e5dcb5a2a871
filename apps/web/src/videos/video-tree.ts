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
