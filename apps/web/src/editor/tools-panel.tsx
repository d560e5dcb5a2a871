import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import FilterIcon from '@mui/icons-material/FilterAltOutlined';
import VisibleIcon from '@mui/icons-material/Visibility';
import HiddenIcon from '@mui/icons-material/VisibilityOff';
import SwapIcon from '@mui/icons-material/SwapHoriz';
import ExcelIcon from '@mui/icons-material/FileDownloadOutlined';
import TimerIcon from '@mui/icons-material/Timer';
import { videosApi } from '../api/videos-api';
import { formatError } from '../api/api-error';
import { startLoading, stopLoading } from '../state/loading-store';
import { notify } from '../state/status-store';
import { useStore } from '../state/create-store';
import { saveBlob } from '../videos/save-blob';
import type { EditorSession } from './editor-session';
import { usePanelVersion } from './use-session';

interface ToolsPanelProps {
  session: EditorSession;
  onOpenFilters(): void;
  onOpenChangeAll(): void;
}

/** Play-mode toggle, filters, show/hide filtered, change placement for all, Excel report. */
export function ToolsPanel({ session, onOpenFilters, onOpenChangeAll }: ToolsPanelProps) {
  usePanelVersion(session);
  const { playMode } = useStore(session.playback);
  const model = session.editor.model;
  const filter = model.filter;
  const active =
    filter.brandIds.length +
    filter.placementIds.length +
    (filter.unreviewedOnly ? 1 : 0) +
    ((filter.minConfidence ?? 0) > 0 ? 1 : 0);
  const [exporting, setExporting] = useState(false);

  const exportExcel = async () => {
    setExporting(true);
    startLoading('Exporting excel report');
    try {
      const blob = await videosApi.excel({
        videoId: session.video.id,
        brandIds: [...filter.brandIds],
        placementIds: [...filter.placementIds],
      });
      saveBlob(blob, `${session.video.name}.xlsx`);
    } catch (error) {
      notify.error(formatError(error, 'Error exporting excel'));
    } finally {
      stopLoading();
      setExporting(false);
    }
  };

  return (
    <Box
      role="toolbar"
      aria-label="Tools"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}
    >
      <Tooltip title="Play mode (m): SECONDS steps one second each second">
        <Button
          size="small"
          variant="outlined"
          startIcon={<TimerIcon />}
          aria-label={`Play mode ${playMode}`}
          onClick={() => session.togglePlayMode()}
          sx={{ minWidth: 112 }}
        >
          {playMode}
        </Button>
      </Tooltip>
      <Tooltip title="Filters (f)">
        <IconButton
          size="small"
          aria-label="Filters"
          onClick={onOpenFilters}
          color={active ? 'primary' : 'default'}
        >
          <FilterIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title={filter.visible ? 'Hide filtered detections (v)' : 'Show filtered detections (v)'}>
        <IconButton
          size="small"
          aria-label="Show filtered detections"
          aria-pressed={filter.visible}
          onClick={() => model.toggleFilteredVisible()}
        >
          {filter.visible ? <VisibleIcon /> : <HiddenIcon />}
        </IconButton>
      </Tooltip>
      <Tooltip title="Change placement for all detections">
        <IconButton size="small" aria-label="Change placement for all detections" onClick={onOpenChangeAll}>
          <SwapIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title="Export Excel report">
        <span>
          <IconButton
            size="small"
            aria-label="Export Excel report"
            disabled={exporting}
            onClick={() => void exportExcel()}
          >
            <ExcelIcon />
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}
