import { useCallback, useState, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  formatTimeDisplay,
  formatTimecode,
  progressClickTime,
  progressHoverTime,
} from '@logo-review/review-canvas';
import { useStore } from '../state/create-store';
import type { EditorSession } from './editor-session';
import { DetectionStrip } from './detection-strip';

/** Spec section 9: the hover preview is 160 px wide. */
export const PREVIEW_WIDTH = 160;

interface Hover {
  x: number;
  timeMs: number;
}

/** The sprite tile of a time: CSS background for a 160 px wide preview. */
function spriteStyle(session: EditorSession, timeMs: number) {
  const t = session.video.thumbnails;
  if (!t) return null;
  const index = Math.min(t.count - 1, Math.max(0, Math.floor(timeMs / 1000 / t.interval)));
  const k = PREVIEW_WIDTH / t.tile_width;
  const col = index % t.columns;
  const row = Math.floor(index / t.columns);
  const rows = Math.ceil(t.count / t.columns);
  return {
    height: Math.round(t.tile_height * k),
    backgroundImage: `url("${t.url}")`,
    backgroundSize: `${t.columns * PREVIEW_WIDTH}px ${rows * t.tile_height * k}px`,
    backgroundPosition: `${-col * PREVIEW_WIDTH}px ${-row * t.tile_height * k}px`,
  };
}

/**
 * The buffered progress bar: a click seeks to the clicked fraction of the duration rounded to whole seconds
 * (only a warning is logged while the duration is unknown); hovering shows the 160 px preview thumbnail from
 * the server's sprite sheet with its time. The time display 'current / duration' sits beside it.
 */
export function ProgressBar({ session }: { session: EditorSession }) {
  const time = useStore(session.time);
  const { durationMs, buffered } = useStore(session.playback);
  const [hover, setHover] = useState<Hover | null>(null);
  const duration = durationMs ?? 0;
  const pct = (ms: number) => (duration > 0 ? `${Math.min(100, (ms / duration) * 100)}%` : '0%');

  const onMove = (e: MouseEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const t = progressHoverTime(x, rect.width, durationMs);
    setHover(t === null ? null : { x, timeMs: t });
  };
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = progressClickTime(e.clientX - rect.left, rect.width, durationMs);
    if (t !== null) session.seek(t);
  };
  const sprite = hover ? spriteStyle(session, hover.timeMs) : null;
  const onStripSeek = useCallback((ms: number) => session.seek(ms), [session]);
  const onDetectionsChanged = useCallback(
    (fn: () => void) =>
      session.editor.on('changed', (e) => {
        if (e.reason === 'detections') fn();
      }),
    [session],
  );

  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr) auto',
        alignItems: 'center',
        columnGap: 2,
        mt: 1.5,
      }}
    >
      <Box
        role="slider"
        aria-label="Video progress"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration / 1000)}
        aria-valuenow={Math.round(time / 1000)}
        aria-valuetext={formatTimecode(time, session.fps)}
        tabIndex={-1}
        onClick={onClick}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
        sx={{
          position: 'relative',
          height: 24,
          cursor: 'pointer',
          display: 'flex',
          alignItems: 'center',
        }}
      >
        <Box
          sx={{
            position: 'relative',
            width: '100%',
            height: 6,
            borderRadius: 3,
            bgcolor: 'grey.300',
            overflow: 'hidden',
          }}
        >
          {buffered.map(([start, end]) => (
            <Box
              key={start}
              data-testid="buffered-range"
              sx={{
                position: 'absolute',
                top: 0,
                bottom: 0,
                left: pct(start),
                width: pct(end - start),
                bgcolor: 'grey.500',
              }}
            />
          ))}
          <Box
            sx={{
              position: 'absolute',
              top: 0,
              bottom: 0,
              left: 0,
              width: pct(time),
              bgcolor: 'primary.main',
            }}
          />
        </Box>
        {hover && (
          <Box
            role="tooltip"
            aria-label="Preview"
            sx={{
              position: 'absolute',
              bottom: 30,
              left: `clamp(0px, ${hover.x - PREVIEW_WIDTH / 2}px, calc(100% - ${PREVIEW_WIDTH}px))`,
              width: PREVIEW_WIDTH,
              bgcolor: '#000',
              borderRadius: 1,
              boxShadow: 3,
              overflow: 'hidden',
              pointerEvents: 'none',
              zIndex: 2,
            }}
          >
            {sprite && (
              <Box
                data-testid="preview-thumbnail"
                sx={{ width: PREVIEW_WIDTH, backgroundRepeat: 'no-repeat', ...sprite }}
              />
            )}
            <Typography
              variant="caption"
              component="div"
              sx={{ color: '#fff', textAlign: 'center', py: 0.25 }}
            >
              {formatTimecode(hover.timeMs, session.fps)}
            </Typography>
          </Box>
        )}
      </Box>
      <Typography
        variant="body2"
        role="timer"
        aria-label="Time"
        sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      >
        {formatTimeDisplay(time, duration, session.fps)}
      </Typography>
      <DetectionStrip
        videoId={session.video.id}
        projectId={session.video.project?.id ?? null}
        durationMs={duration || session.video.duration * 1000}
        fps={session.fps}
        onSeek={onStripSeek}
        onDetectionsChanged={onDetectionsChanged}
      />
    </Box>
  );
}
