import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Brand, Placement } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { notify } from '../state/status-store';
import { editorApi } from './editor-api';
import { BrandPlacementPickers } from './id-picker';
import { PlacementLabel } from './detections-panel';

/** Spec section 5: the two warnings of "Change placement for all detections" (exact texts). */
export const NEW_PLACEMENT_REQUIRED = 'New Placement is required!';
export const UNKNOWN_VIDEO_ID = 'Unknown video id!';

interface ChangePlacementDialogProps {
  open: boolean;
  videoId: number | null;
  brands: readonly Brand[];
  placements: readonly Placement[];
  onClose(): void;
  /** Called after the server changed them: the editor reloads its detections. */
  onChanged(): void;
}

/** Changes the placement of every detection of the video matching brands and placements (empty = all). */
export function ChangePlacementDialog(props: ChangePlacementDialogProps) {
  const [brandIds, setBrandIds] = useState<number[]>([]);
  const [placementIds, setPlacementIds] = useState<number[]>([]);
  const [newPlacement, setNewPlacement] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.open) {
      setBrandIds([]);
      setPlacementIds([]);
      setNewPlacement('');
    }
  }, [props.open]);

  const submit = async () => {
    if (newPlacement === '') {
      notify.warning(NEW_PLACEMENT_REQUIRED);
      return;
    }
    if (props.videoId === null || !(props.videoId > 0)) {
      notify.warning(UNKNOWN_VIDEO_ID);
      return;
    }
    setBusy(true);
    try {
      const answer = await editorApi.changeAll({
        brandIds,
        placementIds,
        newPlacementId: newPlacement,
        videoId: props.videoId,
      });
      notify.success(answer.detail);
      props.onChanged();
      props.onClose();
    } catch (error) {
      notify.error(formatError(error, 'Error occurred while changing placement.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={props.open} onClose={props.onClose} aria-labelledby="editor-change-all-title">
      <DialogTitle id="editor-change-all-title">Change placement for all detections</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <BrandPlacementPickers
            brands={props.brands}
            placements={props.placements}
            brandIds={brandIds}
            placementIds={placementIds}
            onBrandIds={setBrandIds}
            onPlacementIds={setPlacementIds}
          />
          <TextField
            select
            label="New placement"
            value={newPlacement}
            onChange={(e) => setNewPlacement(e.target.value === '' ? '' : Number(e.target.value))}
          >
            {props.placements.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                <PlacementLabel color={p.color} name={p.localized_name} />
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
        <Button variant="contained" disabled={busy} onClick={() => void submit()}>
          Change
        </Button>
      </DialogActions>
    </Dialog>
  );
}
