import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import UndoIcon from '@mui/icons-material/Undo';
import RedoIcon from '@mui/icons-material/Redo';
import LabelIcon from '@mui/icons-material/LabelOutlined';
import ZoomResetIcon from '@mui/icons-material/ZoomOutMap';
import HelpIcon from '@mui/icons-material/HelpOutlined';
import HistoryIcon from '@mui/icons-material/History';
import FollowIcon from '@mui/icons-material/Timeline';
import AcceptIcon from '@mui/icons-material/Check';
import DismissIcon from '@mui/icons-material/Close';
import SplitIcon from '@mui/icons-material/ContentCut';
import MergeIcon from '@mui/icons-material/CallMerge';
import TrimBeginIcon from '@mui/icons-material/FirstPage';
import TrimEndIcon from '@mui/icons-material/LastPage';
import type { ReviewOrder } from '@logo-review/review-canvas';
import { useStore } from '../state/create-store';
import type { EditorSession } from './editor-session';
import { usePanelVersion } from './use-session';

function Action(props: {
  label: string;
  keys: string;
  disabled?: boolean;
  pressed?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={`${props.label} (${props.keys})`}>
      <span>
        <IconButton
          size="small"
          aria-label={props.label}
          aria-pressed={props.pressed}
          disabled={props.disabled}
          onClick={props.onClick}
        >
          {props.children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** What the progress shows for a video without detections (rather than "0 of 0 reviewed"). */
export const NO_DETECTIONS = 'No detections';

/**
 * "N of M reviewed" with a thin bar; unknown counts (an older server) show nothing, and a video without
 * detections says so (there is nothing to review, so no share).
 */
export function ReviewProgress({ reviewed, total }: { reviewed: number | null; total: number | null }) {
  if (reviewed === null || total === null) return null;
  if (total === 0)
    return (
      <Box sx={{ minWidth: 150 }}>
        <Typography variant="body2" data-testid="review-progress" aria-live="polite">
          {NO_DETECTIONS}
        </Typography>
      </Box>
    );
  const share = (100 * reviewed) / total;
  return (
    <Box sx={{ minWidth: 150 }}>
      <Typography variant="body2" data-testid="review-progress" aria-live="polite">
        {reviewed} of {total} reviewed
      </Typography>
      <LinearProgress
        variant="determinate"
        value={share}
        aria-label="Share reviewed"
        sx={{ height: 4, borderRadius: 2 }}
      />
    </Box>
  );
}

/**
 * The review loop's bar (issue 17): progress, queue order, undo/redo, labels, zoom reset, the track tools
 * and the key help. Every button names its key; everything here also works from the keyboard.
 */
export function ReviewBar({
  session,
  onHelp,
  onHistory,
}: {
  session: EditorSession;
  onHelp(): void;
  onHistory(id: number): void;
}) {
  usePanelVersion(session);
  const s = useStore(session.review.state);
  const view = useStore(session.zoom);
  const { review, editor } = session;
  const model = editor.model;
  const selected = model.activeSelectedIds().length;
  return (
    <Box
      role="toolbar"
      aria-label="Review"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap', mb: 1 }}
    >
      <ReviewProgress reviewed={s.reviewed} total={s.total} />
      <TextField
        select
        size="small"
        label="Review order"
        value={s.order}
        onChange={(e) => review.setOrder(e.target.value as ReviewOrder)}
        sx={{ ml: 1, minWidth: 140 }}
        slotProps={{ htmlInput: { 'aria-label': 'Review order' } }}
      >
        <MenuItem value="time">By time</MenuItem>
        <MenuItem value="confidence">By confidence</MenuItem>
      </TextField>
      <Action label="Undo" keys="Ctrl+Z" disabled={!s.canUndo} onClick={() => void review.undo()}>
        <UndoIcon fontSize="small" />
      </Action>
      <Action label="Redo" keys="Ctrl+Shift+Z" disabled={!s.canRedo} onClick={() => void review.redo()}>
        <RedoIcon fontSize="small" />
      </Action>
      <Action
        label="Labels"
        keys="l"
        pressed={editor.labelsVisible}
        onClick={() => {
          editor.toggleLabels();
          session.scheduleRender();
          session.version.set((v) => v + 1);
        }}
      >
        <LabelIcon fontSize="small" />
      </Action>
      <Action label="Reset zoom" keys="0" disabled={view.zoom === 1} onClick={() => session.resetZoom()}>
        <ZoomResetIcon fontSize="small" />
      </Action>
      {view.zoom > 1 && (
        <Typography variant="caption" data-testid="zoom-level">
          {view.zoom.toFixed(1)}x
        </Typography>
      )}
      <Box sx={{ width: 8 }} />
      {s.proposing ? (
        <>
          <Action label="Accept track" keys="Enter" onClick={() => void review.acceptTrack()}>
            <AcceptIcon fontSize="small" />
          </Action>
          <Action label="Dismiss track" keys="Esc" onClick={() => review.dismissTrack()}>
            <DismissIcon fontSize="small" />
          </Action>
        </>
      ) : (
        <Action
          label="Follow"
          keys="k"
          disabled={(selected !== 1 && !(selected === 0 && model.selectedDraftIds.size === 1)) || s.busy}
          onClick={() => void review.follow()}
        >
          <FollowIcon fontSize="small" />
        </Action>
      )}
      <Action label="Trim begin" keys="[" disabled={selected !== 1} onClick={() => void review.trim('begin')}>
        <TrimBeginIcon fontSize="small" />
      </Action>
      <Action label="Trim end" keys="]" disabled={selected !== 1} onClick={() => void review.trim('end')}>
        <TrimEndIcon fontSize="small" />
      </Action>
      <Action label="Split" keys="s" disabled={selected !== 1} onClick={() => void review.split()}>
        <SplitIcon fontSize="small" />
      </Action>
      <Action
        label="Merge"
        keys="g"
        disabled={model.selectedDetectionIds.size !== 2}
        onClick={() => void review.merge()}
      >
        <MergeIcon fontSize="small" />
      </Action>
      <Action
        label="History"
        keys="h"
        disabled={selected !== 1}
        onClick={() => onHistory(model.activeSelectedIds()[0])}
      >
        <HistoryIcon fontSize="small" />
      </Action>
      <Action label="Keyboard help" keys="?" onClick={onHelp}>
        <HelpIcon fontSize="small" />
      </Action>
    </Box>
  );
}
