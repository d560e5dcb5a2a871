import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Folder } from '@logo-review/contract';

/** Select value of the root folder; the API sends null for it. */
export const ROOT = 'root';

export function folderToValue(id: number | null): string {
  return id === null ? ROOT : String(id);
}

export function valueToFolder(value: string): number | null {
  return value === ROOT ? null : Number(value);
}

interface Props {
  label: string;
  folders: Folder[];
  value: string;
  onChange(value: string): void;
  required?: boolean;
  /** Folders that may not be chosen (a folder cannot be its own parent). */
  excludeId?: number;
}

/** Spec: the parent (or target) folder is chosen from the folder paths, with '/' as the root. */
export function FolderSelect({ label, folders, value, onChange, required, excludeId }: Props) {
  const options = folders.filter((f) => f.id !== excludeId).sort((a, b) => a.path.localeCompare(b.path));
  return (
    <TextField
      select
      label={label}
      required={required}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <MenuItem value={ROOT}>/</MenuItem>
      {options.map((f) => (
        <MenuItem key={f.id} value={String(f.id)}>
          {f.path}
        </MenuItem>
      ))}
    </TextField>
  );
}
