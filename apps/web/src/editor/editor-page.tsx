import { useCallback, useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import VideoIcon from '@mui/icons-material/OndemandVideoOutlined';
import { useQuery } from '@tanstack/react-query';
import type { Brand, Placement, Project, Video } from '@logo-review/contract';
import { defaultLabelText, detectionTableHeight, type FittedVideo } from '@logo-review/review-canvas';
import { useBrands, usePlacements, useProjects } from '../api/queries';
import { QK } from '../api/query-keys';
import { videosApi } from '../api/videos-api';
import { useStore } from '../state/create-store';
import { startLoading, stopLoading } from '../state/loading-store';
import { selectedVideoStore } from '../state/selected-video';
import { ChangePlacementDialog } from './change-placement-dialog';
import { DetectionsPanel } from './detections-panel';
import { FiltersDialog } from './filters-dialog';
import { HelpDialog } from './help-dialog';
import { HistoryDialog } from './history-dialog';
import { ReviewBar } from './review-bar';
import { brandLabel } from './id-picker';
import { NewDetectionsPanel } from './new-detections-panel';
import { PlaybackControls } from './playback-controls';
import { ProgressBar } from './progress-bar';
import { ToolsPanel } from './tools-panel';
import { useEditorHotkeys } from './use-editor-hotkeys';
import { useEditorSession } from './use-session';
import { VideoStage } from './video-stage';

/** Spec section 2 (exact texts). */
export const NO_VIDEO_MESSAGE = 'There is no selected video. Please select a video from video list.';
export const LOADING_EDITOR = 'Loading Editor.';

/**
 * The review editor (/editor): a thin React shell around @logo-review/review-canvas. Left 9/12: playback
 * controls and tools, the video with its detection overlay, the progress bar and time. Right 3/12: the
 * Detections and New Detections panels.
 */
export default function EditorPage() {
  const videoId = useStore(selectedVideoStore);
  const videoQuery = useQuery({
    queryKey: QK.video(videoId ?? 0),
    queryFn: () => videosApi.get(videoId ?? 0),
    enabled: videoId !== null,
  });
  const brands = useBrands();
  const placements = usePlacements();
  const projects = useProjects();
  const loading = videoId !== null && (videoQuery.isPending || brands.isPending || placements.isPending);
  const projectId = videoQuery.data?.project?.id;
  const project = projectId === undefined ? undefined : projects.data?.find((p) => p.id === projectId);

  useEffect(() => {
    if (loading) startLoading(LOADING_EDITOR);
    else stopLoading();
  }, [loading]);
  useEffect(() => () => stopLoading(), []);
  useEffect(() => {
    // Spec section 8: a failure to load the editor video is only logged.
    if (videoQuery.error) console.error('Editor: loading the video failed', videoQuery.error);
  }, [videoQuery.error]);

  if (videoId === null || videoQuery.isError) return <NoVideo />;
  if (!videoQuery.data || !brands.data || !placements.data) return null;
  return (
    <Workspace
      key={videoQuery.data.id}
      video={videoQuery.data}
      brands={brands.data}
      placements={placements.data}
      project={project}
    />
  );
}

function NoVideo() {
  return (
    <Box sx={{ p: 3 }}>
      <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
        <VideoIcon color="disabled" sx={{ fontSize: 56, mb: 1 }} />
        <Typography color="text.secondary">{NO_VIDEO_MESSAGE}</Typography>
      </Paper>
    </Box>
  );
}

interface WorkspaceProps {
  video: Video;
  brands: Brand[];
  placements: Placement[];
  /** The video's project (its hidden brands and placements are hidden in the editor, as in its report). */
  project: Project | undefined;
}

function Workspace({ video, brands, placements, project }: WorkspaceProps) {
  const session = useEditorSession(video, placements);
  useEffect(() => {
    session?.editor.model.setHidden(
      project?.filtered_brands.map((b) => b.id) ?? [],
      project?.filtered_placements.map((p) => p.id) ?? [],
    );
  }, [session, project]);
  const [videoSize, setVideoSize] = useState<FittedVideo>({ width: 0, height: 0, scale: 1 });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [changeAllOpen, setChangeAllOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const openFilters = useCallback(() => setFiltersOpen(true), []);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  useEditorHotkeys(session, openFilters, openHelp, setHistoryOf);
  const brandNames = useMemo(() => new Map(brands.map((b) => [b.id, brandLabel(b)])), [brands]);
  const brandName = useCallback((id: number) => brandNames.get(id) ?? `#${id}`, [brandNames]);
  useEffect(() => {
    if (!session) return;
    session.editor.setLabelText((d) => defaultLabelText(d, brandName));
    session.scheduleRender();
  }, [session, brandName]);

  if (!session) return null;
  const filter = session.editor.model.filter;
  return (
    <Box sx={{ p: { xs: 1.5, md: 2 } }}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 9 }}>
          <Paper variant="outlined" sx={{ p: 1.5 }}>
            <Stack
              direction="row"
              sx={{
                alignItems: 'center',
                justifyContent: 'space-between',
                flexWrap: 'wrap',
                gap: 1,
                mb: 1.5,
              }}
            >
              <PlaybackControls session={session} />
              <ToolsPanel
                session={session}
                onOpenFilters={openFilters}
                onOpenChangeAll={() => setChangeAllOpen(true)}
              />
            </Stack>
            <ReviewBar session={session} onHelp={openHelp} onHistory={setHistoryOf} />
            <VideoStage session={session} onResize={setVideoSize} />
            <ProgressBar session={session} />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <Stack spacing={2}>
            <DetectionsPanel
              session={session}
              brandName={brandName}
              placements={placements}
              tableHeight={detectionTableHeight(videoSize.height)}
            />
            <NewDetectionsPanel
              session={session}
              brands={brands}
              placements={placements}
              brandName={brandName}
            />
          </Stack>
        </Grid>
      </Grid>
      <FiltersDialog
        open={filtersOpen}
        brands={brands}
        placements={placements}
        filter={filter}
        onClose={() => setFiltersOpen(false)}
        onApply={(patch) => {
          session.editor.model.setFilter({ ...session.editor.model.filter, ...patch });
          setFiltersOpen(false);
        }}
      />
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <HistoryDialog detectionId={historyOf} onClose={() => setHistoryOf(null)} />
      <ChangePlacementDialog
        open={changeAllOpen}
        videoId={video.id}
        brands={brands}
        placements={placements}
        onClose={() => setChangeAllOpen(false)}
        onChanged={() => session.reloadDetections()}
      />
    </Box>
  );
}
