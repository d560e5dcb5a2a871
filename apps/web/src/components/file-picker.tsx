import { useId } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';

interface Props {
  label: string;
  files: File[];
  onChange(files: File[]): void;
  accept?: string;
  multiple?: boolean;
  required?: boolean;
  helperText?: string;
}

/** Adds the picked files, skipping names already chosen (spec: file names are not duplicated). */
export function mergeFiles(current: File[], picked: File[], multiple: boolean): File[] {
  if (!multiple) return picked.slice(0, 1);
  const names = new Set(current.map((f) => f.name));
  const added = picked.filter((f) => !names.has(f.name) && (names.add(f.name), true));
  return [...current, ...added];
}

/** A labelled file input shown as a button plus the chosen files as removable chips. */
export function FilePicker({
  label,
  files,
  onChange,
  accept,
  multiple = false,
  required,
  helperText,
}: Props) {
  const id = useId();
  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary" component="label" htmlFor={id}>
        {label}
        {required ? ' *' : ''}
      </Typography>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Button variant="outlined" component="label" startIcon={<AttachFileIcon />} size="small">
          {multiple ? 'Choose files' : 'Choose file'}
          <input
            id={id}
            type="file"
            hidden
            aria-label={label}
            accept={accept}
            multiple={multiple}
            onChange={(e) => {
              const picked = Array.from(e.target.files ?? []);
              onChange(mergeFiles(files, picked, multiple));
              e.target.value = '';
            }}
          />
        </Button>
        {files.length === 0 && (
          <Typography variant="body2" color="text.disabled">
            No file chosen
          </Typography>
        )}
        {files.map((f) => (
          <Chip
            key={f.name}
            label={f.name}
            size="small"
            onDelete={() => onChange(files.filter((x) => x !== f))}
          />
        ))}
      </Stack>
      {helperText && <FormHelperText sx={{ m: 0 }}>{helperText}</FormHelperText>}
    </Stack>
  );
}
