import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Brand, Placement } from '@logo-review/contract';
import type { DetectionFilter } from '@logo-review/review-canvas';
import { BrandPlacementPickers } from './id-picker';

/** What Apply changes in the editor filter. */
export type FilterPatch = Pick<
  DetectionFilter,
  'brandIds' | 'placementIds' | 'unreviewedOnly' | 'minConfidence'
>;

interface FiltersDialogProps {
  open: boolean;
  brands: readonly Brand[];
  placements: readonly Placement[];
  filter: DetectionFilter;
  onApply(patch: FilterPatch): void;
  onClose(): void;
}

/**
 * The editor filter: brands and placements to keep (empty means all), and for the review (issue 17)
 * "unreviewed only" and a confidence threshold below which engine detections are hidden.
 */
export function FiltersDialog(props: FiltersDialogProps) {
  const [brandIds, setBrandIds] = useState<number[]>([]);
  const [placementIds, setPlacementIds] = useState<number[]>([]);
  const [unreviewedOnly, setUnreviewedOnly] = useState(false);
  const [minConfidence, setMinConfidence] = useState(0);
  const { open, filter } = props;
  useEffect(() => {
    if (open) {
      setBrandIds([...filter.brandIds]);
      setPlacementIds([...filter.placementIds]);
      setUnreviewedOnly(filter.unreviewedOnly ?? false);
      setMinConfidence(filter.minConfidence ?? 0);
    }
  }, [open, filter]);
  const percent = Math.round(minConfidence * 100);
  return (
    <Dialog open={props.open} onClose={props.onClose} aria-labelledby="editor-filters-title">
      <DialogTitle id="editor-filters-title">Filters</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Detections of other brands or placements are hidden, or drawn thin when filtered ones are shown.
          Empty means all.
        </DialogContentText>
        <Stack spacing={2}>
          <BrandPlacementPickers
            brands={props.brands}
            placements={props.placements}
            brandIds={brandIds}
            placementIds={placementIds}
            onBrandIds={setBrandIds}
            onPlacementIds={setPlacementIds}
          />
          <FormControlLabel
            control={
              <Checkbox checked={unreviewedOnly} onChange={(e) => setUnreviewedOnly(e.target.checked)} />
            }
            label="Unreviewed only"
          />
          <Box>
            <Typography id="confidence-threshold-label" variant="body2">
              Confidence threshold: {percent === 0 ? 'none' : `${percent}%`}
            </Typography>
            <Slider
              value={percent}
              min={0}
              max={100}
              step={5}
              valueLabelDisplay="auto"
              aria-labelledby="confidence-threshold-label"
              onChange={(_, v) => setMinConfidence((v as number) / 100)}
            />
            <Typography variant="caption" color="text.secondary">
              Engine detections below it are hidden; hand-drawn ones have no confidence and stay.
            </Typography>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            setBrandIds([]);
            setPlacementIds([]);
            setUnreviewedOnly(false);
            setMinConfidence(0);
          }}
        >
          Clear
        </Button>
        <Button onClick={props.onClose}>Close</Button>
        <Button
          variant="contained"
          onClick={() => props.onApply({ brandIds, placementIds, unreviewedOnly, minConfidence })}
        >
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
