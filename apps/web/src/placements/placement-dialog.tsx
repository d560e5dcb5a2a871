import { useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Placement } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { placementsApi } from '../api/placements-api';
import { QK } from '../api/query-keys';
import { FormDialog } from '../components/form-dialog';
import { requiredFilled } from '../components/validation';
import { notify } from '../state/status-store';
import { NameField } from '../components/name-field';

/** Spec: a new placement defaults to black. */
export const DEFAULT_PLACEMENT_COLOR = '#000000';
const HEX = /^#[0-9a-fA-F]{6}$/;

interface Props {
  placement: Placement | null | undefined;
  onClose(): void;
}

export function PlacementDialog({ placement, onClose }: Props) {
  return placement === undefined ? null : (
    <PlacementForm key={placement?.id ?? 'new'} placement={placement} onClose={onClose} />
  );
}

function PlacementForm({ placement, onClose }: { placement: Placement | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(placement?.localized_name ?? '');
  const [color, setColor] = useState(placement?.color ?? DEFAULT_PLACEMENT_COLOR);
  const save = useMutation({
    mutationFn: () =>
      placement
        ? placementsApi.update({ id: placement.id, localized_name: name.trim(), color })
        : placementsApi.create({ localized_name: name.trim(), color }),
    onSuccess: (list) => {
      queryClient.setQueryData(QK.placements, list);
      notify.success(`Successfuly updated placement ${name.trim()}`);
      onClose();
    },
    onError: (error) => notify.error(formatError(error, 'Error updating/creating placement.')),
  });
  const colorValid = HEX.test(color);
  return (
    <FormDialog
      open
      title={placement ? 'Edit placement' : 'Create placement'}
      canSave={requiredFilled([name, color]) && colorValid}
      busy={save.isPending}
      onSave={() => save.mutate()}
      onClose={onClose}
      maxWidth="xs"
    >
      <NameField value={name} onChange={setName} />
      <Stack direction="row" spacing={1.5} alignItems="flex-start">
        <TextField
          label="Color"
          required
          value={color}
          onChange={(e) => setColor(e.target.value)}
          error={!colorValid}
          helperText={colorValid ? 'Hex colour, e.g. #1e88e5' : 'Use the form #rrggbb'}
          sx={{ flexGrow: 1 }}
        />
        <Box
          component="input"
          type="color"
          aria-label="Pick color"
          value={colorValid ? color : DEFAULT_PLACEMENT_COLOR}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => setColor(e.target.value)}
          sx={{
            width: 48,
            height: 40,
            p: 0.5,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'transparent',
            cursor: 'pointer',
          }}
        />
      </Stack>
    </FormDialog>
  );
}
