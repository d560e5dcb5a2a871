import { useDeferredValue, useMemo, useState } from 'react';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ProjectIcon from '@mui/icons-material/WorkOutline';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Project } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { projectsApi } from '../api/projects-api';
import { useBrands, usePlacements, useProjects } from '../api/queries';
import { QK } from '../api/query-keys';
import { AddFab } from '../components/add-fab';
import { DeleteButton, EditButton } from '../components/card-buttons';
import { CardCell, CardGrid } from '../components/card-grid';
import { DeleteDialog } from '../components/delete-dialog';
import { matchesSearch } from '../components/filter-by-name';
import { ListStates } from '../components/list-states';
import { PageLayout } from '../components/page-layout';
import { SearchBox } from '../components/search-box';
import { notify } from '../state/status-store';
import { DESCRIPTION_ROWS, ProjectDialog } from './project-dialog';

/** 'All / Shown' counts: every record versus those the project does not hide. */
export function shownCount(all: number, hidden: number): string {
  return `${all} / ${Math.max(0, all - hidden)}`;
}

export default function ProjectsPage() {
  const queryClient = useQueryClient();
  const projects = useProjects();
  const brands = useBrands().data ?? [];
  const placements = usePlacements().data ?? [];
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const [editing, setEditing] = useState<Project | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const visible = useMemo(
    () =>
      (projects.data ?? [])
        .filter((p) => matchesSearch(deferred, p.name, p.description))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [projects.data, deferred],
  );
  const remove = useMutation({
    mutationFn: (p: Project) => projectsApi.remove(p.id),
    onSuccess: (list) => {
      queryClient.setQueryData(QK.projects, list);
      notify.success('Deleted project');
      setDeleting(null);
    },
    onError: (error) => notify.error(formatError(error, 'Error deleting project')),
  });
  const total = projects.data?.length ?? 0;

  return (
    <PageLayout toolbar={<SearchBox value={search} onChange={setSearch} label="Search projects" />}>
      <ListStates
        loading={projects.isLoading}
        loadingLabel="Loading projects"
        empty={projects.isSuccess && total === 0}
        icon={<ProjectIcon />}
        emptyTitle="No projects yet"
        emptyHint="A project decides which brands and placements its videos show. Create one, then pick it when you upload a video."
        addLabel="Add project"
        onAdd={() => setEditing(null)}
        noMatch={total > 0 && visible.length === 0}
        noMatchTitle="No project matches your search"
      />
      <CardGrid label="Projects">
        {visible.map((p) => (
          <CardCell key={p.id}>
            <Card component="article" aria-label={p.name}>
              <CardContent>
                <Typography variant="subtitle1" component="h3" noWrap title={p.name} sx={{ mb: 1 }}>
                  {p.name}
                </Typography>
                <Typography
                  variant="body2"
                  color={p.description ? 'text.primary' : 'text.disabled'}
                  sx={{
                    display: '-webkit-box',
                    WebkitLineClamp: DESCRIPTION_ROWS,
                    WebkitBoxOrient: 'vertical',
                    overflow: 'hidden',
                    whiteSpace: 'pre-line',
                    mb: 1.5,
                  }}
                >
                  {p.description || 'No description'}
                </Typography>
                <Stack spacing={0.5}>
                  <Typography variant="body2" color="text.secondary">
                    All / Shown brands: <strong>{shownCount(brands.length, p.filtered_brands.length)}</strong>
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    All / Shown placements:{' '}
                    <strong>{shownCount(placements.length, p.filtered_placements.length)}</strong>
                  </Typography>
                </Stack>
              </CardContent>
              <CardActions disableSpacing sx={{ pt: 0 }}>
                <EditButton name={p.name} onClick={() => setEditing(p)} />
                <DeleteButton name={p.name} onClick={() => setDeleting(p)} />
              </CardActions>
            </Card>
          </CardCell>
        ))}
      </CardGrid>
      <AddFab label="Add project" onClick={() => setEditing(null)} />
      <ProjectDialog
        project={editing}
        brands={brands}
        placements={placements}
        onClose={() => setEditing(undefined)}
      />
      <DeleteDialog
        name={deleting?.name ?? null}
        message="The project is removed for good. This cannot be undone."
        typeName
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </PageLayout>
  );
}
