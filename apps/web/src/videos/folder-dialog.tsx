import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { QK } from '../api/query-keys';
import { videosApi } from '../api/videos-api';
import { FormDialog } from '../components/form-dialog';
import { requiredFilled } from '../components/validation';
import { notify } from '../state/status-store';
import { FolderSelect, folderToValue, valueToFolder } from './folder-select';
import { NameField } from '../components/name-field';

interface Props {
  open: boolean;
  folders: Folder[];
  /** The folder the user is in: the default parent. */
  currentFolder: number | null;
  onClose(): void;
}

export function FolderDialog({ open, ...rest }: Props) {
  return open ? <FolderForm {...rest} /> : null;
}

function FolderForm({ folders, currentFolder, onClose }: Omit<Props, 'open'>) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [parent, setParent] = useState(folderToValue(currentFolder));
  const create = useMutation({
    mutationFn: () => videosApi.createFolder({ name: name.trim(), parent: valueToFolder(parent) }),
    onSuccess: (tree) => {
      queryClient.setQueryData(QK.videos, tree);
      onClose();
    },
    onError: (error) => notify.error(formatError(error, 'Error creating new folder')),
  });
  return (
    <FormDialog
      open
      title="Create New Folder"
      canSave={requiredFilled([name])}
      busy={create.isPending}
      onSave={() => create.mutate()}
      onClose={onClose}
      maxWidth="xs"
    >
      <NameField value={name} onChange={setName} />
      <FolderSelect label="Parent" folders={folders} value={parent} onChange={setParent} />
    </FormDialog>
  );
}
