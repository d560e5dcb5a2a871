import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS, type Folder, type Project } from '@logo-review/contract';
import { QK } from '../api/query-keys';
import { FilePicker } from '../components/file-picker';
import { FormDialog } from '../components/form-dialog';
import { requiredFilled } from '../components/validation';
import { notify } from '../state/status-store';
import { FolderSelect, folderToValue, valueToFolder } from './folder-select';
import { NO_PROJECT, ProjectSelect, valueToProject } from './project-select';
import { startUpload } from './upload-manager';
import { NameField } from '../components/name-field';
import { useRefetchOnOpen } from '../api/use-refetch-on-open';

interface Props {
  open: boolean;
  folders: Folder[];
  projects: Project[];
  currentFolder: number | null;
  onClose(): void;
}

export function VideoAddDialog({ open, ...rest }: Props) {
  return open ? <VideoAddForm {...rest} /> : null;
}

/** Drops the extension: 'match-01.mp4' suggests the name 'match-01'. */
function nameFromFile(file: File): string {
  return file.name.replace(/\.[^.]+$/, '');
}

function VideoAddForm({ folders, projects, currentFolder, onClose }: Omit<Props, 'open'>) {
  const queryClient = useQueryClient();
  useRefetchOnOpen(QK.videos, QK.projects);
  const [name, setName] = useState('');
  const [folder, setFolder] = useState(folderToValue(currentFolder));
  const [project, setProject] = useState(NO_PROJECT);
  const [files, setFiles] = useState<File[]>([]);
  const file = files[0];
  const tooLarge = file !== undefined && file.size > LIMITS.videoMaxBytes;

  const upload = () => {
    if (!file) {
      notify.error('Error occurred while uploading media file. Please try again.');
      return;
    }
    startUpload(
      { name: name.trim(), file, folder: valueToFolder(folder), project: valueToProject(project) },
      () => queryClient.invalidateQueries({ queryKey: QK.videos }),
    );
    onClose();
  };

  return (
    <FormDialog
      open
      title="Add video"
      saveLabel="Upload"
      canSave={requiredFilled([name, folder, files]) && !tooLarge}
      onSave={upload}
      onClose={onClose}
    >
      <NameField value={name} onChange={setName} />
      <FolderSelect label="Folder" required folders={folders} value={folder} onChange={setFolder} />
      <ProjectSelect projects={projects} value={project} onChange={setProject} />
      <FilePicker
        label="Video file"
        required
        accept="video/*"
        files={files}
        onChange={(next) => {
          setFiles(next);
          if (next[0] && !name.trim()) setName(nameFromFile(next[0]));
        }}
        helperText={
          tooLarge
            ? `The file is larger than ${LIMITS.videoMaxBytes / 1024 ** 3} GB.`
            : 'The upload continues in the background; follow it under Ongoing tasks.'
        }
      />
    </FormDialog>
  );
}
