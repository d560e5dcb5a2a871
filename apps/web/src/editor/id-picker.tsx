import Autocomplete from '@mui/material/Autocomplete';
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

interface BrandPlacementPickersProps {
  brands: readonly Brand[];
  placements: readonly Placement[];
  brandIds: readonly number[];
  placementIds: readonly number[];
  onBrandIds(ids: number[]): void;
  onPlacementIds(ids: number[]): void;
}

/** The 'Brands' and 'Placements' pickers of the editor's filter and change-all dialogs (empty means all). */
export function BrandPlacementPickers(props: BrandPlacementPickersProps) {
  return (
    <>
      <IdPicker<Brand>
        label="Brands"
        options={props.brands}
        value={props.brandIds}
        onChange={props.onBrandIds}
        getLabel={brandLabel}
      />
      <IdPicker<Placement>
        label="Placements"
        options={props.placements}
        value={props.placementIds}
        onChange={props.onPlacementIds}
        getLabel={(p) => p.localized_name}
      />
    </>
  );
}
