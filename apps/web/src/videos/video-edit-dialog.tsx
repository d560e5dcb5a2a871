import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder, Project, Video } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { QK } from '../api/query-keys';
import { videosApi } from '../api/videos-api';
import { FormDialog } from '../components/form-dialog';
import { requiredFilled } from '../components/validation';
import { notify } from '../state/status-store';
import { FolderSelect, folderToValue, valueToFolder } from './folder-select';
import { ProjectSelect, projectToValue, valueToProject } from './project-select';
import { NameField } from '../components/name-field';
import { useRefetchOnOpen } from '../api/use-refetch-on-open';

interface Props {
  video: Video | null;
  folders: Folder[];
  projects: Project[];
  onClose(): void;
}

export function VideoEditDialog({ video, ...rest }: Props) {
  return video ? <VideoEditForm key={video.id} video={video} {...rest} /> : null;
}

function VideoEditForm({ video, folders, projects, onClose }: Props & { video: Video }) {
  const queryClient = useQueryClient();
  useRefetchOnOpen(QK.videos, QK.projects);
  const [name, setName] = useState(video.name);
  const [folder, setFolder] = useState(folderToValue(video.folder));
  const [project, setProject] = useState(projectToValue(video.project?.id));
  const save = useMutation({
    mutationFn: () =>
      videosApi.update({
        id: video.id,
        name: name.trim(),
        folder: valueToFolder(folder),
        project: valueToProject(project),
      }),
    onSuccess: () => {
      onClose();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: QK.videos }),
        queryClient.invalidateQueries({ queryKey: QK.video(video.id) }),
      ]);
    },
    onError: (error) => notify.error(formatError(error, 'Error retrieving videos')),
  });
  return (
    <FormDialog
      open
      title={`Edit video ${video.name}`}
      canSave={requiredFilled([name, folder])}
      busy={save.isPending}
      onSave={() => save.mutate()}
      onClose={onClose}
    >
      <NameField value={name} onChange={setName} />
      <FolderSelect label="Folder" required folders={folders} value={folder} onChange={setFolder} />
      <ProjectSelect projects={projects} value={project} onChange={setProject} />
    </FormDialog>
  );
}
