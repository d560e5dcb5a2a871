import { useState } from 'react';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import type { Video } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { useBrands, usePlacements, useTags } from '../api/queries';
import { videosApi, type ExcelOptions } from '../api/videos-api';
import { FormDialog } from '../components/form-dialog';
import { MultiPicker } from '../components/multi-picker';
import { startLoading, stopLoading } from '../state/loading-store';
import { notify } from '../state/status-store';
import { saveBlob } from './save-blob';
import { QK } from '../api/query-keys';
import { useRefetchOnOpen } from '../api/use-refetch-on-open';

/** Spec: three export modes. */
export type ExportMode = 'default' | 'tags' | 'withoutPlacement';

/** Spec: the export loading overlay lasts an extra 1 s. */
export const EXPORT_OVERLAY_EXTRA_MS = 1000;

interface Selection {
  mode: ExportMode;
  tagIds: number[];
  brandIds: number[];
  placementIds: number[];
}

/** Maps the wizard's choice to the excel query; empty lists mean "all". */
export function exportOptions(videoId: number, s: Selection): ExcelOptions {
  switch (s.mode) {
    case 'tags':
      return { videoId, tagIds: s.tagIds };
    case 'withoutPlacement':
      return { videoId, brandIds: s.brandIds, withoutPlacement: true };
    default:
      return { videoId, brandIds: s.brandIds, placementIds: s.placementIds };
  }
}

/** Downloads the Excel report and keeps the overlay 1 s longer, as the spec says. */
export async function exportExcel(video: Pick<Video, 'id' | 'name'>, options: ExcelOptions): Promise<void> {
  startLoading('Exporting Excel report…');
  try {
    const blob = await videosApi.excel(options);
    saveBlob(blob, `${video.name}.xlsx`);
  } catch (error) {
    notify.error(formatError(error, 'Error exporting excel'));
  } finally {
    setTimeout(stopLoading, EXPORT_OVERLAY_EXTRA_MS);
  }
}

export function ExportWizard({ video, onClose }: { video: Video | null; onClose(): void }) {
  return video ? <ExportForm key={video.id} video={video} onClose={onClose} /> : null;
}

function ExportForm({ video, onClose }: { video: Video; onClose(): void }) {
  useRefetchOnOpen(QK.brands, QK.placements, QK.tags);
  const brands = useBrands().data ?? [];
  const placements = usePlacements().data ?? [];
  const tags = useTags().data ?? [];
  // Spec: the default export selects nothing; the default tag and brand lists are empty.
  const [selection, setSelection] = useState<Selection>({
    mode: 'default',
    tagIds: [],
    brandIds: [],
    placementIds: [],
  });
  const set = (patch: Partial<Selection>) => setSelection((s) => ({ ...s, ...patch }));
  const brandOptions = brands
    .map((b) => ({ id: b.id, label: b.localized_name || b.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const placementOptions = placements.map((p) => ({ id: p.id, label: p.localized_name }));
  const tagOptions = tags.filter((t) => !t.archived).map((t) => ({ id: t.id, label: t.name }));
  const canExport = selection.mode !== 'tags' || selection.tagIds.length > 0;

  return (
    <FormDialog
      open
      title={`Export detections of ${video.name}`}
      saveLabel="Export"
      canSave={canExport}
      onSave={() => {
        onClose();
        void exportExcel(video, exportOptions(video.id, selection));
      }}
      onClose={onClose}
    >
      <FormControl>
        <FormLabel id="export-mode">Report</FormLabel>
        <RadioGroup
          aria-labelledby="export-mode"
          value={selection.mode}
          onChange={(e) => set({ mode: e.target.value as ExportMode })}
        >
          <FormControlLabel value="default" control={<Radio />} label="Default" />
          <FormControlLabel value="tags" control={<Radio />} label="With tags" />
          <FormControlLabel value="withoutPlacement" control={<Radio />} label="Without placement" />
        </RadioGroup>
      </FormControl>
      {selection.mode === 'tags' ? (
        <MultiPicker
          label="Tags"
          options={tagOptions}
          value={selection.tagIds}
          onChange={(tagIds) => set({ tagIds })}
          helperText={
            tagOptions.length ? 'Pick at least one tag.' : 'No tags yet: create them on the Tags page.'
          }
        />
      ) : (
        <MultiPicker
          label="Brands"
          options={brandOptions}
          value={selection.brandIds}
          onChange={(brandIds) => set({ brandIds })}
          placeholder="All brands"
        />
      )}
      {selection.mode === 'default' && (
        <MultiPicker
          label="Placements"
          options={placementOptions}
          value={selection.placementIds}
          onChange={(placementIds) => set({ placementIds })}
          placeholder="All placements"
        />
      )}
      {selection.mode !== 'tags' && (
        <Typography variant="body2" color="text.secondary">
          Leave a list empty to include everything.
        </Typography>
      )}
    </FormDialog>
  );
}
