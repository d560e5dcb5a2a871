import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Brand, Placement, Project, Tag } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { QK } from '../api/query-keys';
import { tagsApi } from '../api/tags-api';
import { FormDialog } from '../components/form-dialog';
import { MultiPicker } from '../components/multi-picker';
import { notify } from '../state/status-store';
import { NO_PROJECT, ProjectSelect, projectToValue, valueToProject } from '../videos/project-select';
import { NameField } from '../components/name-field';
import { useRefetchOnOpen } from '../api/use-refetch-on-open';

interface Props {
  tag: Tag | null | undefined;
  brands: Brand[];
  placements: Placement[];
  projects: Project[];
  onClose(): void;
}

export function TagDialog({ tag, ...rest }: Props) {
  return tag === undefined ? null : <TagForm key={tag?.id ?? 'new'} tag={tag} {...rest} />;
}

function TagForm({ tag, brands, placements, projects, onClose }: Props & { tag: Tag | null }) {
  const queryClient = useQueryClient();
  useRefetchOnOpen(QK.brands, QK.placements, QK.projects);
  const [name, setName] = useState(tag?.name ?? '');
  // Spec: the brand picker accepts only numbers (brand ids).
  const [brandId, setBrandId] = useState<number | null>(tag?.brand ?? null);
  const [placementIds, setPlacementIds] = useState<number[]>(tag?.placements ?? []);
  const [project, setProject] = useState(tag ? projectToValue(tag.project) : NO_PROJECT);
  const [archived, setArchived] = useState(tag?.archived ?? false);
  const brandOptions = brands
    .map((b) => ({ id: b.id, label: b.localized_name || b.name }))
    .sort((a, b) => a.label.localeCompare(b.label));

  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        brand: brandId!,
        placements: placementIds,
        project: valueToProject(project),
      };
      return tag ? tagsApi.update({ id: tag.id, ...body, archived }) : tagsApi.create(body);
    },
    onSuccess: (list) => {
      queryClient.setQueryData(QK.tags, list);
      notify.info('Retrieved tags.');
      onClose();
    },
    onError: (error) =>
      notify.error(
        formatError(
          error,
          tag
            ? `Error occurred while updating tag ${name.trim()}.`
            : `Error occurred while creating new tag ${name.trim()}.`,
        ),
      ),
  });
  return (
    <FormDialog
      open
      title={tag ? `Edit tag ${tag.name}` : 'Create new tag.'}
      // Spec: tag save needs a name and a brand.
      canSave={name.trim().length > 0 && typeof brandId === 'number'}
      busy={save.isPending}
      onSave={() => save.mutate()}
      onClose={onClose}
    >
      <NameField value={name} onChange={setName} />
      <Autocomplete
        size="small"
        options={brandOptions}
        value={brandOptions.find((o) => o.id === brandId) ?? null}
        getOptionLabel={(o) => o.label}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_e, next) => setBrandId(next ? next.id : null)}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Brand"
            required
            helperText={brandOptions.length ? undefined : 'No brands yet: add one on the Brands page.'}
          />
        )}
      />
      <MultiPicker
        label="Placements"
        options={placements.map((p) => ({ id: p.id, label: p.localized_name }))}
        value={placementIds}
        onChange={setPlacementIds}
        placeholder="All placements"
      />
      <ProjectSelect projects={projects} value={project} onChange={setProject} />
      {tag && (
        <FormControlLabel
          control={<Switch checked={archived} onChange={(e) => setArchived(e.target.checked)} />}
          label="Archived"
        />
      )}
    </FormDialog>
  );
}
