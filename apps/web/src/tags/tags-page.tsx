import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import TagIcon from '@mui/icons-material/SellOutlined';
import type { Tag } from '@logo-review/contract';
import { useBrands, usePlacements, useProjects, useTags } from '../api/queries';
import { AddFab } from '../components/add-fab';
import { EditButton } from '../components/card-buttons';
import { CardField } from '../components/card-field';
import { CardCell, CardGrid } from '../components/card-grid';
import { matchesSearch } from '../components/filter-by-name';
import { ListStates } from '../components/list-states';
import { PageLayout } from '../components/page-layout';
import { SearchBox } from '../components/search-box';
import { useLoadedMessage } from '../components/use-loaded-message';
import { notify } from '../state/status-store';
import { TagDialog } from './tag-dialog';
import { describeTag } from './tag-format';

export default function TagsPage() {
  const tags = useTags();
  const brands = useBrands().data ?? [];
  const placements = usePlacements().data ?? [];
  const projects = useProjects().data ?? [];
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const [editing, setEditing] = useState<Tag | null | undefined>(undefined);
  useLoadedMessage(
    tags.isSuccess,
    tags.dataUpdatedAt,
    useCallback(() => notify.info('Retrieved tags.'), []),
  );

  const maps = useMemo(
    () => ({
      brands: new Map(brands.map((b) => [b.id, b])),
      placements: new Map(placements.map((p) => [p.id, p])),
      projects: new Map(projects.map((p) => [p.id, p])),
    }),
    [brands, placements, projects],
  );
  const { active, archived } = useMemo(() => {
    const list = (tags.data ?? [])
      .filter((t) => matchesSearch(deferred, t.name))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { active: list.filter((t) => !t.archived), archived: list.filter((t) => t.archived) };
  }, [tags.data, deferred]);
  const total = tags.data?.length ?? 0;

  const renderCards = (list: Tag[], label: string) => (
    <CardGrid label={label}>
      {list.map((tag) => {
        const d = describeTag(tag, maps.brands, maps.placements, maps.projects);
        return (
          <CardCell key={tag.id}>
            <Card component="article" aria-label={tag.name} sx={{ opacity: tag.archived ? 0.75 : 1 }}>
              <CardContent>
                <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
                  <TagIcon fontSize="small" color={tag.archived ? 'disabled' : 'primary'} />
                  <Typography variant="subtitle1" component="h3" noWrap title={tag.name}>
                    {tag.name}
                  </Typography>
                </Stack>
                <CardField label="Brand">{d.brand}</CardField>
                <CardField label="Placements">{d.placements}</CardField>
                <CardField label="Project">{d.project}</CardField>
              </CardContent>
              <CardActions disableSpacing sx={{ pt: 0 }}>
                <EditButton name={tag.name} onClick={() => setEditing(tag)} />
              </CardActions>
            </Card>
          </CardCell>
        );
      })}
    </CardGrid>
  );

  return (
    <PageLayout toolbar={<SearchBox value={search} onChange={setSearch} label="Search tags" />}>
      <ListStates
        loading={tags.isLoading}
        loadingLabel="Loading tags"
        empty={tags.isSuccess && total === 0}
        icon={<TagIcon />}
        emptyTitle="No tags yet"
        emptyHint="A tag links a brand with placements and a project, and lets you export a report by tag. Create your first one."
        addLabel="Add tag"
        onAdd={() => setEditing(null)}
        noMatch={total > 0 && active.length + archived.length === 0}
        noMatchTitle="No tag matches your search"
      />
      <Stack spacing={4}>
        {active.length > 0 && renderCards(active, 'Active tags')}
        {archived.length > 0 && (
          <section aria-label="Archived (not active)">
            <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
              Archived (not active)
            </Typography>
            {renderCards(archived, 'Archived tags')}
          </section>
        )}
      </Stack>
      <AddFab label="Add tag" onClick={() => setEditing(null)} />
      <TagDialog
        tag={editing}
        brands={brands}
        placements={placements}
        projects={projects}
        onClose={() => setEditing(undefined)}
      />
    </PageLayout>
  );
}
