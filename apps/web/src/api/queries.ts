import { useQuery } from '@tanstack/react-query';
import type { Folder, Video, VideoTree } from '@logo-review/contract';
import { VIDEO_STATUS, VERIFICATION_STATUS } from '@logo-review/contract';
import { brandsApi } from './brands-api';
import { placementsApi } from './placements-api';
import { profileApi } from './profile-api';
import { projectsApi } from './projects-api';
import { tagsApi } from './tags-api';
import { verificationApi } from './verification-api';
import { videosApi } from './videos-api';
import { QK } from './query-keys';

/** While something is still being processed on the server, lists refresh on their own. */
const POLL_MS = 5000;

export const useProfile = (enabled = true) =>
  // Spec: a profile load failure shows no visible message.
  useQuery({ queryKey: QK.profile, queryFn: profileApi.get, enabled });

export const useBrands = () =>
  useQuery({
    queryKey: QK.brands,
    queryFn: () => brandsApi.list(false),
    meta: { errorMessage: 'Error retriving brands' },
    refetchInterval: (q) =>
      q.state.data?.some((b) => b.status === 'QUEUED' || b.status === 'ACTIVATING') ? POLL_MS : false,
  });

export const usePlacements = () =>
  useQuery({
    queryKey: QK.placements,
    queryFn: placementsApi.list,
    meta: { errorMessage: 'Error retrieving placements' },
  });

function isProcessing(video: Video): boolean {
  return video.status !== VIDEO_STATUS.OK && video.status !== VIDEO_STATUS.ERROR;
}

function treeHasProcessing(folders: Folder[], videos: Video[]): boolean {
  return videos.some(isProcessing) || folders.some((f) => treeHasProcessing(f.folders, f.videos));
}

/**
 * The folder tree with its videos. `fresh` asks the server again on mount even when the cached
 * tree is recent: a picker must offer the videos uploaded since (by anyone), not a copy that is
 * up to `staleTime` old.
 */
export const useVideoTree = ({ fresh = false }: { fresh?: boolean } = {}) =>
  useQuery<VideoTree>({
    queryKey: QK.videos,
    queryFn: videosApi.tree,
    meta: { errorMessage: 'Error retrieving videos' },
    refetchOnMount: fresh ? 'always' : true,
    refetchInterval: (q) =>
      q.state.data && treeHasProcessing(q.state.data.folders, q.state.data.videos) ? POLL_MS : false,
  });

export const useProjects = () =>
  useQuery({
    queryKey: QK.projects,
    queryFn: projectsApi.list,
    meta: { errorMessage: 'Error retrieving projects' },
  });

export const useTags = () =>
  useQuery({
    queryKey: QK.tags,
    queryFn: tagsApi.list,
    meta: { errorMessage: 'Error occurred while retrieving tags.' },
  });

export const useVerificationVideos = () =>
  useQuery({
    queryKey: QK.verification,
    queryFn: verificationApi.list,
    meta: { errorMessage: 'Error occurred while loading verification videos.' },
    refetchInterval: (q) =>
      q.state.data?.some(
        (v) => v.status !== VERIFICATION_STATUS.FINISHED && v.status !== VERIFICATION_STATUS.ERROR,
      )
        ? POLL_MS
        : false,
  });
