import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Project } from '@logo-review/contract';

export const NO_PROJECT = 'none';

/** Optional project picker with a 'None' entry (sent as null). */
export function ProjectSelect({
  projects,
  value,
  onChange,
  label = 'Project',
}: {
  projects: Project[];
  value: string;
  onChange(value: string): void;
  label?: string;
}) {
  return (
    <TextField select label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <MenuItem value={NO_PROJECT}>
        <em>None</em>
      </MenuItem>
      {[...projects]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((p) => (
          <MenuItem key={p.id} value={String(p.id)}>
            {p.name}
          </MenuItem>
        ))}
    </TextField>
  );
}

export function projectToValue(id: number | null | undefined): string {
  return id === null || id === undefined ? NO_PROJECT : String(id);
}

export function valueToProject(value: string): number | null {
  return value === NO_PROJECT ? null : Number(value);
}
