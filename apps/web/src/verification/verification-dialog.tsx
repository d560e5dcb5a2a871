import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VIDEO_STATUS, type VerificationVideo } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { useVideoTree } from '../api/queries';
import { QK } from '../api/query-keys';
import { verificationApi } from '../api/verification-api';
import { FormDialog } from '../components/form-dialog';
import { notify } from '../state/status-store';
import { NameField } from '../components/name-field';
import { flattenVideos } from '../videos/video-tree';

export interface VerificationTarget {
  /** The record to edit, or null to create one. */
  verification: VerificationVideo | null;
  /** Preselected video when created from a video card. */
  videoId?: number;
}

interface Props {
  target: VerificationTarget | null;
  onClose(): void;
  /** Called after a successful save (the Videos page uses it to point at the Verification page). */
  onSaved?(): void;
}

export function VerificationDialog({ target, ...rest }: Props) {
  return target ? (
    <VerificationForm key={target.verification?.id ?? 'new'} target={target} {...rest} />
  ) : null;
}

function VerificationForm({ target, onClose, onSaved }: Props & { target: VerificationTarget }) {
  const queryClient = useQueryClient();
  const editing = target.verification;
  const [name, setName] = useState(editing?.name ?? '');
  const [video, setVideo] = useState<string>(
    editing ? String(editing.video) : target.videoId !== undefined ? String(target.videoId) : '',
  );
  // Asked again each time the dialog opens: the choice must include videos uploaded meanwhile.
  const tree = useVideoTree({ fresh: true });
  const sorted = flattenVideos(tree.data).sort((a, b) => a.name.localeCompare(b.name));
  const save = useMutation({
    mutationFn: () =>
      editing
        ? verificationApi.update({ id: editing.id, name: name.trim() })
        : verificationApi.create({ name: name.trim(), video: Number(video) }),
    onSuccess: (list) => {
      queryClient.setQueryData(QK.verification, list);
      notify.success(
        editing
          ? `Updated verification video ${editing.id}.`
          : `Created new verification video ${name.trim()}.`,
      );
      onSaved?.();
      onClose();
    },
    onError: (error) => notify.error(formatError(error, 'Failed to update verification video.')),
  });
  return (
    <FormDialog
      open
      title={editing ? `Edit verification video ${editing.name}` : 'Create new verification video.'}
      // Spec: save needs a non-empty name and a chosen video.
      canSave={name.trim().length > 0 && video !== ''}
      busy={save.isPending}
      onSave={() => save.mutate()}
      onClose={onClose}
    >
      <NameField value={name} onChange={setName} />
      <TextField
        select
        label="Video"
        required
        value={video}
        onChange={(e) => setVideo(e.target.value)}
        // Spec: the video is read-only when editing.
        disabled={editing !== null}
        helperText={
          sorted.length > 0
            ? undefined
            : tree.isFetching
              ? 'Loading videos…'
              : 'Upload a video on the Videos page first.'
        }
      >
        {sorted.map((v) => (
          // Only an analysed video can be rendered with its detections.
          <MenuItem
            key={v.id}
            value={String(v.id)}
            disabled={v.status !== VIDEO_STATUS.OK && v.id !== editing?.video}
          >
            {v.status === VIDEO_STATUS.OK ? v.name : `${v.name} (${v.status.toLowerCase()})`}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
