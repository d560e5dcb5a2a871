import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PlayIcon from '@mui/icons-material/PlayArrow';
import PauseIcon from '@mui/icons-material/Pause';
import NextFrameIcon from '@mui/icons-material/NavigateNext';
import PreviousFrameIcon from '@mui/icons-material/NavigateBefore';
import NextSecondIcon from '@mui/icons-material/FastForward';
import PreviousSecondIcon from '@mui/icons-material/FastRewind';
import SpeedUpIcon from '@mui/icons-material/Add';
import SpeedDownIcon from '@mui/icons-material/Remove';
import NextDetectionIcon from '@mui/icons-material/SkipNext';
import PreviousDetectionIcon from '@mui/icons-material/SkipPrevious';
import { SPEED_MAX, SPEED_MIN } from '@logo-review/review-canvas';
import { useStore } from '../state/create-store';
import type { EditorSession } from './editor-session';

function Control(props: {
  label: string;
  hotkey: string;
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip title={`${props.label} (${props.hotkey})`}>
      <span>
        <IconButton aria-label={props.label} onClick={props.onClick} disabled={props.disabled} size="small">
          {props.children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** Play/pause, frame and second steps, speed, next/previous detection (spec section 2). */
export function PlaybackControls({ session }: { session: EditorSession }) {
  const { playing, rate } = useStore(session.playback);
  return (
    <Box
      role="toolbar"
      aria-label="Playback"
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap' }}
    >
      <Control label="Previous detection" hotkey="b" onClick={() => void session.previousDetection()}>
        <PreviousDetectionIcon />
      </Control>
      <Control label="Previous second" hotkey="Ctrl+←" onClick={() => session.previousSecond()}>
        <PreviousSecondIcon />
      </Control>
      <Control label="Previous frame" hotkey="←" onClick={() => session.previousFrame()}>
        <PreviousFrameIcon />
      </Control>
      <Control label={playing ? 'Pause' : 'Play'} hotkey="p" onClick={() => session.togglePlay()}>
        {playing ? <PauseIcon /> : <PlayIcon />}
      </Control>
      <Control label="Next frame" hotkey="→" onClick={() => session.nextFrame()}>
        <NextFrameIcon />
      </Control>
      <Control label="Next second" hotkey="Ctrl+→" onClick={() => session.nextSecond()}>
        <NextSecondIcon />
      </Control>
      <Control label="Next detection" hotkey="n" onClick={() => void session.nextDetection()}>
        <NextDetectionIcon />
      </Control>
      <Box sx={{ mx: 1, height: 24, borderLeft: 1, borderColor: 'divider' }} />
      <Control label="Speed down" hotkey="-" onClick={() => session.speedDown()} disabled={rate <= SPEED_MIN}>
        <SpeedDownIcon />
      </Control>
      <Typography
        variant="body2"
        aria-label="Playback speed"
        role="status"
        sx={{ minWidth: 40, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}
      >
        {`${rate}x`}
      </Typography>
      <Control label="Speed up" hotkey="+" onClick={() => session.speedUp()} disabled={rate >= SPEED_MAX}>
        <SpeedUpIcon />
      </Control>
    </Box>
  );
}
