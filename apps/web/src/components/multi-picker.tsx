import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

export interface PickerOption {
  id: number;
  label: string;
}

interface Props {
  label: string;
  options: PickerOption[];
  value: number[];
  onChange(ids: number[]): void;
  placeholder?: string;
  helperText?: string;
}

/** A searchable multi-select of records by id. */
export function MultiPicker({ label, options, value, onChange, placeholder, helperText }: Props) {
  const selected = options.filter((o) => value.includes(o.id));
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={selected}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, next) => onChange(next.map((o) => o.id))}
      filterSelectedOptions
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={selected.length ? undefined : placeholder}
          helperText={helperText}
        />
      )}
    />
  );
}
