import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadIcon from '@mui/icons-material/FileUploadOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder, Video } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { useProjects, useVideoTree } from '../api/queries';
import { QK } from '../api/query-keys';
import { videosApi } from '../api/videos-api';
import { CardCell, CardGrid } from '../components/card-grid';
import { ConfirmDialog } from '../components/confirm-dialog';
import { EmptyState } from '../components/empty-state';
import { matchesSearch } from '../components/filter-by-name';
import { PageLayout } from '../components/page-layout';
import { RenderMore, useRenderBudget } from '../components/progressive-list';
import { SearchBox } from '../components/search-box';
import { selectVideo } from '../state/selected-video';
import { notify } from '../state/status-store';
import { VerificationDialog, type VerificationTarget } from '../verification/verification-dialog';
import { ExportWizard } from './export-wizard';
import { exportCampaignReport } from '../analytics/campaign-export';
import { CreateFolderCard, FolderCard } from './folder-card';
import { FolderDialog } from './folder-dialog';
import { VideoAddDialog } from './video-add-dialog';
import { VideoCard, type VideoCardActions } from './video-card';
import { VideoEditDialog } from './video-edit-dialog';
import { flattenFolders, folderChain, searchLibrary, type LocatedVideo } from './video-tree';

/** Spec: the breadcrumb shows at most 5 items. */
export const BREADCRUMB_MAX = 5;

type Deleting = { kind: 'video'; video: Video } | { kind: 'folder'; folder: Folder };

export default function VideosPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tree = useVideoTree();
  const projects = useProjects().data ?? [];
  // The folder lives in the URL so the browser's back button walks up the tree.
  const [params, setParams] = useSearchParams();
  const folderParam = Number(params.get('folder'));
  const folderId = Number.isInteger(folderParam) && folderParam > 0 ? folderParam : null;
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);

  const [folderDialog, setFolderDialog] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [editing, setEditing] = useState<Video | null>(null);
  const [exporting, setExporting] = useState<Video | null>(null);
  const [verifying, setVerifying] = useState<VerificationTarget | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);

  const chain = useMemo(() => folderChain(tree.data, folderId), [tree.data, folderId]);
  const current = chain[chain.length - 1];
  const allFolders = useMemo(() => flattenFolders(tree.data), [tree.data]);
  const here = current ?? (tree.data ? { folders: tree.data.folders, videos: tree.data.videos } : undefined);
  const folders = useMemo(
    () =>
      (here?.folders ?? [])
        .filter((f) => matchesSearch(deferred, f.name))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [here, deferred],
  );
  // With text in the search box, videos come from every folder and their cards show the folder path;
  // with an empty box, the current folder's videos (issue 20).
  const searching = deferred.trim() !== '';
  const videos = useMemo<LocatedVideo[]>(
    () =>
      searching
        ? searchLibrary(tree.data, deferred)
        : (here?.videos ?? []).map((video) => ({ video, path: '' })),
    [searching, tree.data, here, deferred],
  );

  // Folders are few and always shown; a folder's videos render in steps (1,000 in one folder is real).
  const [budget, renderMore] = useRenderBudget(`${folderId}|${deferred}`);
  const shownVideos = useMemo(() => videos.slice(0, budget), [videos, budget]);

  const openFolder = useCallback(
    (f: Folder | null) => {
      setSearch('');
      setParams(f ? { folder: String(f.id) } : {});
    },
    [setParams],
  );
  const onDeleteFolder = useCallback((folder: Folder) => setDeleting({ kind: 'folder', folder }), []);
  const onExportCampaign = useCallback(
    (folder: Folder) => void exportCampaignReport({ folder: folder.id }),
    [],
  );
  const actions = useMemo<VideoCardActions>(
    () => ({
      onOpen: (video) => {
        selectVideo(video.id);
        navigate('/editor');
      },
      onVerify: (video) => setVerifying({ verification: null, videoId: video.id }),
      onExport: setExporting,
      onEdit: setEditing,
      onDelete: (video) => setDeleting({ kind: 'video', video }),
    }),
    [navigate],
  );

  // Built only when the (deferred) result changes: a keystroke's urgent render skips the grid.
  const cards = useMemo(
    () => (
      <>
        {folders.map((f) => (
          <CardCell key={`f${f.id}`}>
            <FolderCard
              folder={f}
              onOpen={openFolder}
              onDelete={onDeleteFolder}
              onExportCampaign={onExportCampaign}
            />
          </CardCell>
        ))}
        {shownVideos.map(({ video, path }) => (
          <CardCell key={`v${video.id}`}>
            <VideoCard video={video} actions={actions} path={searching ? path : undefined} />
          </CardCell>
        ))}
      </>
    ),
    [folders, shownVideos, openFolder, onDeleteFolder, onExportCampaign, actions, searching],
  );

  const remove = useMutation({
    mutationFn: async (target: Deleting) => {
      if (target.kind === 'video') await videosApi.remove(target.video.id);
      else queryClient.setQueryData(QK.videos, await videosApi.removeFolder(target.folder.id));
    },
    onSuccess: (_r, target) => {
      notify.success(target.kind === 'video' ? 'Successfully deleted video' : 'Successfully deleted folder');
      setDeleting(null);
      return queryClient.invalidateQueries({ queryKey: QK.videos });
    },
    onError: (error, target) =>
      notify.error(
        formatError(
          error,
          target.kind === 'video'
            ? 'Error occurred during deleting video'
            : 'Error occurred during deleting folder',
        ),
      ),
  });

  const folderMissing = folderId !== null && tree.isSuccess && !current;
  const empty = !searching && here !== undefined && here.folders.length === 0 && here.videos.length === 0;
  const nothingFound = searching && folders.length === 0 && videos.length === 0;

  return (
    <PageLayout
      toolbar={
        <Stack spacing={1.5}>
          <Breadcrumbs maxItems={BREADCRUMB_MAX} aria-label="Folder path">
            {chain.length === 0 ? (
              <Typography color="text.primary">Videos</Typography>
            ) : (
              <Link component={RouterLink} to="/videos" underline="hover" color="inherit">
                Videos
              </Link>
            )}
            {chain.map((f, i) =>
              i === chain.length - 1 ? (
                <Typography key={f.id} color="text.primary" aria-current="page">
                  {f.name}
                </Typography>
              ) : (
                <Link
                  key={f.id}
                  component={RouterLink}
                  to={`/videos?folder=${f.id}`}
                  underline="hover"
                  color="inherit"
                >
                  {f.name}
                </Link>
              ),
            )}
          </Breadcrumbs>
          <SearchBox value={search} onChange={setSearch} label="Search videos" />
        </Stack>
      }
      actions={
        // The upload goes to the folder shown, which is known once the tree has arrived: opened
        // earlier (a page just loaded), the dialog would offer the root and the video land there.
        <Button
          variant="contained"
          startIcon={<UploadIcon />}
          disabled={tree.data === undefined}
          onClick={() => setAddOpen(true)}
        >
          Upload video
        </Button>
      }
    >
      {tree.isLoading && <LinearProgress sx={{ mb: 2 }} aria-label="Loading videos" />}
      {folderMissing ? (
        <EmptyState
          title="This folder does not exist anymore"
          hint="It may have been deleted. Go back to the top of your video library."
          action={
            <Button variant="contained" onClick={() => openFolder(null)}>
              Go to Videos
            </Button>
          }
        />
      ) : (
        tree.isSuccess && (
          <Stack spacing={3}>
            <CardGrid label="Folders and videos" expandable>
              <CardCell>
                <CreateFolderCard onClick={() => setFolderDialog(true)} />
              </CardCell>
              {cards}
            </CardGrid>
            <RenderMore shown={shownVideos.length} total={videos.length} onMore={renderMore} />
            {empty && (
              <EmptyState
                title={current ? 'This folder is empty' : 'No videos yet'}
                hint="Upload a video to find brand logos in it, or create a folder to keep your library organized."
                action={
                  <Button variant="contained" startIcon={<UploadIcon />} onClick={() => setAddOpen(true)}>
                    Upload video
                  </Button>
                }
              />
            )}
            {nothingFound && (
              <EmptyState
                title="Nothing matches your search"
                hint="Try another name, or look in another folder."
              />
            )}
          </Stack>
        )
      )}
      <FolderDialog
        open={folderDialog}
        folders={allFolders}
        currentFolder={current?.id ?? null}
        onClose={() => setFolderDialog(false)}
      />
      <VideoAddDialog
        open={addOpen}
        folders={allFolders}
        projects={projects}
        currentFolder={current?.id ?? null}
        onClose={() => setAddOpen(false)}
      />
      <VideoEditDialog
        video={editing}
        folders={allFolders}
        projects={projects}
        onClose={() => setEditing(null)}
      />
      <ExportWizard video={exporting} onClose={() => setExporting(null)} />
      <VerificationDialog target={verifying} onClose={() => setVerifying(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={
          deleting?.kind === 'folder'
            ? `Delete folder ${deleting.folder.name}?`
            : `Delete ${deleting?.video.name ?? ''}?`
        }
        message={
          deleting?.kind === 'folder'
            ? folderDeleteMessage(deleting.folder)
            : 'The video and its detections are removed. This cannot be undone.'
        }
        confirmLabel="Delete"
        danger
        blocked={deleting?.kind === 'folder' && !folderIsEmpty(deleting.folder)}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </PageLayout>
  );
}

const folderIsEmpty = (f: Folder) => f.folders.length === 0 && f.videos.length === 0;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the delete dialog says of a folder: the server deletes only empty ones, so say so before the click. */
function folderDeleteMessage(f: Folder): string {
  if (folderIsEmpty(f)) return 'The empty folder is removed.';
  const parts = [
    f.folders.length > 0 ? count(f.folders.length, 'folder', 'folders') : '',
    f.videos.length > 0 ? count(f.videos.length, 'video', 'videos') : '',
  ].filter(Boolean);
  return `This folder holds ${parts.join(' and ')}. Only an empty folder can be deleted: move or delete them first.`;
}
