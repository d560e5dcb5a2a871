import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Brand, Placement } from '@logo-review/contract';

/** A brand's label in pickers: localized name, else name. */
export const brandLabel = (b: Pick<Brand, 'name' | 'localized_name'>) => b.localized_name || b.name;

interface IdPickerProps<T extends { id: number }> {
  label: string;
  options: readonly T[];
  value: readonly number[];
  onChange(ids: number[]): void;
  getLabel(o: T): string;
}

/** A multi-select of records by id; empty means all. */
export function IdPicker<T extends { id: number }>({
  label,
  options,
  value,
  onChange,
  getLabel,
}: IdPickerProps<T>) {
  const chosen = options.filter((o) => value.includes(o.id));
  return (
    <Autocomplete
      multiple
      options={options as T[]}
      value={chosen}
      getOptionLabel={getLabel}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, list) => onChange(list.map((o) => o.id))}
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder={value.length ? '' : 'All'} />
      )}
    />
  );
}

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
          <IdPicker<Brand>
            label="Brands"
            options={props.brands}
            value={brandIds}
            onChange={setBrandIds}
            getLabel={brandLabel}
          />
          <IdPicker<Placement>
            label="Placements"
            options={props.placements}
            value={placementIds}
            onChange={setPlacementIds}
            getLabel={(p) => p.localized_name}
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
