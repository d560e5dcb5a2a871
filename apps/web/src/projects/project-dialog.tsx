import { useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS, type Brand, type Placement, type Project } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { projectsApi } from '../api/projects-api';
import { QK } from '../api/query-keys';
import { FormDialog } from '../components/form-dialog';
import { requiredFilled } from '../components/validation';
import { notify } from '../state/status-store';
import { VisibilityList } from './visibility-list';
import { NameField } from '../components/name-field';
import { useRefetchOnOpen } from '../api/use-refetch-on-open';

/** Spec section 9: the project description shows up to 5 rows. */
export const DESCRIPTION_ROWS = 5;

interface Props {
  project: Project | null | undefined;
  brands: Brand[];
  placements: Placement[];
  onClose(): void;
}

export function ProjectDialog({ project, ...rest }: Props) {
  return project === undefined ? null : (
    <ProjectForm key={project?.id ?? 'new'} project={project} {...rest} />
  );
}

function ProjectForm({ project, brands, placements, onClose }: Props & { project: Project | null }) {
  const queryClient = useQueryClient();
  useRefetchOnOpen(QK.brands, QK.placements);
  const [tab, setTab] = useState<'project' | 'brand' | 'placement'>('project');
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [hiddenBrands, setHiddenBrands] = useState(new Set(project?.filtered_brands.map((b) => b.id) ?? []));
  const [hiddenPlacements, setHiddenPlacements] = useState(
    new Set(project?.filtered_placements.map((p) => p.id) ?? []),
  );
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        description,
        filtered_brands: [...hiddenBrands],
        filtered_placements: [...hiddenPlacements],
      };
      return project ? projectsApi.update({ id: project.id, ...body }) : projectsApi.create(body);
    },
    onSuccess: (list) => {
      queryClient.setQueryData(QK.projects, list);
      notify.success(project ? `Updated project ${name.trim()}` : `Created new Project ${name.trim()}`);
      onClose();
    },
    onError: (error) =>
      notify.error(formatError(error, project ? 'Error updating project' : 'Error creating new project')),
  });
  return (
    <FormDialog
      open
      title={project ? `Edit project ${project.name}` : 'New project'}
      canSave={requiredFilled([name])}
      busy={save.isPending}
      onSave={() => {
        if (!name.trim()) notify.error('Unknown error occured, project is undefined.');
        else save.mutate();
      }}
      onClose={onClose}
    >
      <Tabs
        value={tab}
        onChange={(_e, v: typeof tab) => setTab(v)}
        sx={{ borderBottom: 1, borderColor: 'divider', mt: -1 }}
      >
        <Tab value="project" label="Project" />
        <Tab value="brand" label="Brand" />
        <Tab value="placement" label="Placement" />
      </Tabs>
      <Box hidden={tab !== 'project'} role="tabpanel" aria-label="Project">
        {tab === 'project' && (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, pt: 1 }}>
            <NameField value={name} onChange={setName} />
            <TextField
              label="Description"
              multiline
              minRows={2}
              maxRows={DESCRIPTION_ROWS}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              slotProps={{ htmlInput: { maxLength: LIMITS.descriptionMax } }}
            />
          </Box>
        )}
      </Box>
      {tab === 'brand' && (
        <Box role="tabpanel" aria-label="Brand">
          <VisibilityList
            noun="brands"
            items={brands
              .map((b) => ({ id: b.id, label: b.localized_name || b.name }))
              .sort((a, b) => a.label.localeCompare(b.label))}
            hidden={hiddenBrands}
            onChange={setHiddenBrands}
            emptyHint="No brands yet. Add brands on the Brands page; they are shown in every project by default."
          />
        </Box>
      )}
      {tab === 'placement' && (
        <Box role="tabpanel" aria-label="Placement">
          <VisibilityList
            noun="placements"
            items={placements
              .map((p) => ({ id: p.id, label: p.localized_name }))
              .sort((a, b) => a.label.localeCompare(b.label))}
            hidden={hiddenPlacements}
            onChange={setHiddenPlacements}
            emptyHint="No placements yet. Create them on the Placements page."
          />
        </Box>
      )}
    </FormDialog>
  );
}
