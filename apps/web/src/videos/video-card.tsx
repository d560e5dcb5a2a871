import { memo, useState } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import VerifiedIcon from '@mui/icons-material/VerifiedOutlined';
import ExportIcon from '@mui/icons-material/FileDownloadOutlined';
import MovieIcon from '@mui/icons-material/MovieOutlined';
import FolderIcon from '@mui/icons-material/FolderOutlined';
import type { Video } from '@logo-review/contract';
import { DeleteButton, EditButton, ExpandButton } from '../components/card-buttons';
import { detectionCount, formatDuration } from './video-tree';
import { videoState, type VideoState } from './video-status';

export interface VideoCardActions {
  onOpen(video: Video): void;
  onVerify(video: Video): void;
  onExport(video: Video): void;
  onEdit(video: Video): void;
  onDelete(video: Video): void;
}

function Detail({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <Stack direction="row" spacing={1} justifyContent="space-between" sx={{ py: 0.25, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
        {label}
      </Typography>
      {/* Long values (hashes, reasons) stay on one line; the full text is in the tooltip. */}
      <Typography
        variant="body2"
        noWrap
        title={value}
        sx={{ textAlign: 'right', minWidth: 0, fontFamily: mono ? 'monospace' : undefined }}
      >
        {value}
      </Typography>
    </Stack>
  );
}

/** Memoised: a folder can hold 1,000 videos and search typing must stay smooth. */
export const VideoCard = memo(function VideoCard({
  video,
  actions,
  path,
}: {
  video: Video;
  actions: VideoCardActions;
  /** The folder path, shown by search results across folders. */
  path?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const state = videoState(video.status);
  const ok = state === 'ok';
  const header = (
    <CardContent sx={{ pb: 1 }}>
      <Poster video={video} state={state} />
      <Typography variant="subtitle1" component="h3" noWrap title={video.name} sx={{ mt: 1 }}>
        {video.name}
      </Typography>
      {path !== undefined && (
        <Stack
          direction="row"
          spacing={0.5}
          alignItems="center"
          sx={{ minWidth: 0, color: 'text.secondary' }}
        >
          <FolderIcon sx={{ fontSize: 16 }} />
          <Typography variant="body2" noWrap title={path} data-testid="video-path">
            {path}
          </Typography>
        </Stack>
      )}
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mt: 0.5 }}>
        <Chip
          size="small"
          variant="outlined"
          label={video.status}
          color={state === 'ok' ? 'success' : state === 'error' ? 'error' : 'primary'}
        />
        {ok && (
          <Typography variant="body2" color="text.secondary" data-testid="detection-count">
            {detectionCount(video.detections_total)}
          </Typography>
        )}
      </Stack>
      {ok && <ReviewedShare video={video} />}
      {state === 'processing' && (
        <LinearProgress
          variant="determinate"
          value={video.progress}
          sx={{ mt: 1.5, height: 4, borderRadius: 2 }}
          aria-label={`Processing ${video.name}`}
        />
      )}
    </CardContent>
  );
  return (
    <Card
      component="article"
      aria-label={video.name}
      sx={{ borderColor: state === 'error' ? 'error.light' : undefined }}
    >
      {/* Spec: a video card is clickable only when its status is OK; it opens the editor. */}
      {ok ? (
        <CardActionArea onClick={() => actions.onOpen(video)} aria-label={`Open ${video.name} in the editor`}>
          {header}
        </CardActionArea>
      ) : (
        header
      )}
      <CardActions disableSpacing sx={{ pt: 0, mt: 'auto' }}>
        {ok && (
          <>
            <IconButton
              title="Create verification video"
              aria-label={`Create verification video of ${video.name}`}
              onClick={() => actions.onVerify(video)}
            >
              <VerifiedIcon fontSize="small" />
            </IconButton>
            <IconButton
              title="Export detections"
              aria-label={`Export detections of ${video.name}`}
              onClick={() => actions.onExport(video)}
            >
              <ExportIcon fontSize="small" />
            </IconButton>
          </>
        )}
        <EditButton name={video.name} onClick={() => actions.onEdit(video)} />
        <DeleteButton name={video.name} onClick={() => actions.onDelete(video)} />
        <ExpandButton
          what="details"
          name={video.name}
          expanded={expanded}
          onToggle={() => setExpanded((e) => !e)}
        />
      </CardActions>
      <Collapse in={expanded} timeout="auto" unmountOnExit>
        <CardContent sx={{ pt: 1, borderTop: 1, borderColor: 'divider' }}>
          <Detail label="Project" value={video.project?.name ?? '/'} />
          <Detail label="Status" value={video.status} />
          <Detail label="Status Reason" value={video.status_reason || '-'} />
          <Detail label="Progress" value={`${Math.round(video.progress)}%`} />
          <Detail label="Request Hash" value={video.request_hash || '-'} mono />
          <Detail label="Duration" value={formatDuration(video.frames, video.fps)} />
        </CardContent>
      </Collapse>
    </Card>
  );
});

/** The share of a video's detections already reviewed (issue 17). */
export function ReviewedShare({ video }: { video: Video }) {
  const total = video.detections_total;
  const reviewed = video.detections_reviewed;
  // A video without detections has nothing to review: no share ("100% reviewed (0 of 0)" read as done).
  if (total === 0)
    return (
      <Box sx={{ mt: 1.5 }}>
        <Typography variant="caption" color="text.secondary" data-testid="reviewed-share">
          No detections
        </Typography>
      </Box>
    );
  const percent = Math.round((100 * reviewed) / total);
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography variant="caption" color="text.secondary" data-testid="reviewed-share">
        {percent}% reviewed ({reviewed} of {total})
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        color="success"
        sx={{ height: 4, borderRadius: 2 }}
        aria-label={`Reviewed share of ${video.name}`}
      />
    </Box>
  );
}

/** The poster frame from the video's thumbnail sprite (a movie icon until there is one), with the duration. */
function Poster({ video, state }: { video: Video; state: VideoState }) {
  const t = video.thumbnails;
  const duration = formatDuration(video.frames, video.fps);
  return (
    <Box
      sx={{
        position: 'relative',
        width: '100%',
        aspectRatio: t ? `${t.tile_width} / ${t.tile_height}` : '16 / 9',
        borderRadius: 1.5,
        overflow: 'hidden',
        display: 'grid',
        placeItems: 'center',
        bgcolor: state === 'error' ? '#fdecea' : 'grey.100',
        color: state === 'error' ? 'error.main' : state === 'ok' ? 'primary.main' : 'text.secondary',
      }}
    >
      {video.poster_url ? (
        // One small signed JPEG per card, loaded when the card nears the viewport.
        <Box
          component="img"
          src={video.poster_url}
          alt={`Frame of ${video.name}`}
          loading="lazy"
          decoding="async"
          data-testid="video-poster"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <MovieIcon fontSize="large" />
      )}
      {duration !== '-' && (
        <Typography
          variant="caption"
          data-testid="video-duration"
          aria-label={`Duration ${duration}`}
          sx={{
            position: 'absolute',
            right: 6,
            bottom: 6,
            px: 0.75,
            lineHeight: 1.5,
            borderRadius: 0.5,
            color: '#fff',
            bgcolor: 'rgba(0, 0, 0, 0.72)',
            fontVariantNumeric: 'tabular-nums',
          }}
        >
          {duration}
        </Typography>
      )}
    </Box>
  );
}
