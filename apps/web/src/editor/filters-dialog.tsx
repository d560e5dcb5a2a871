import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { Brand, Placement } from '@logo-review/contract';
import { BrandPlacementPickers } from './id-picker';

interface FiltersDialogProps {
  open: boolean;
  brands: readonly Brand[];
  placements: readonly Placement[];
  brandIds: readonly number[];
  placementIds: readonly number[];
  onApply(brandIds: number[], placementIds: number[]): void;
  onClose(): void;
}

/** The editor filter: brands and placements to keep (empty means all). */
export function FiltersDialog(props: FiltersDialogProps) {
  const [brandIds, setBrandIds] = useState<number[]>([]);
  const [placementIds, setPlacementIds] = useState<number[]>([]);
  useEffect(() => {
    if (props.open) {
      setBrandIds([...props.brandIds]);
      setPlacementIds([...props.placementIds]);
    }
  }, [props.open, props.brandIds, props.placementIds]);
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            setBrandIds([]);
            setPlacementIds([]);
          }}
        >
          Clear
        </Button>
        <Button onClick={props.onClose}>Close</Button>
        <Button variant="contained" onClick={() => props.onApply(brandIds, placementIds)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
