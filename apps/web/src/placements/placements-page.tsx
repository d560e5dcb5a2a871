import { useDeferredValue, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Placement } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { placementsApi } from '../api/placements-api';
import { usePlacements } from '../api/queries';
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
import { PlacementDialog } from './placement-dialog';

export default function PlacementsPage() {
  const queryClient = useQueryClient();
  const placements = usePlacements();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const [editing, setEditing] = useState<Placement | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Placement | null>(null);
  const visible = useMemo(
    () =>
      (placements.data ?? [])
        .filter((p) => matchesSearch(deferred, p.localized_name))
        .sort((a, b) => a.localized_name.localeCompare(b.localized_name)),
    [placements.data, deferred],
  );
  const remove = useMutation({
    mutationFn: (p: Placement) => placementsApi.remove(p.id),
    onSuccess: (list) => {
      queryClient.setQueryData(QK.placements, list);
      setDeleting(null);
    },
    onError: (error, p) => notify.error(formatError(error, `Error Deleting placement ${p.id}`)),
  });
  const total = placements.data?.length ?? 0;

  return (
    <PageLayout toolbar={<SearchBox value={search} onChange={setSearch} label="Search placements" />}>
      <ListStates
        loading={placements.isLoading}
        loadingLabel="Loading placements"
        empty={placements.isSuccess && total === 0}
        icon={<PlaceIcon />}
        emptyTitle="No placements yet"
        emptyHint="Placements name the zones where a brand shows up, such as 'Shirt' or 'LED board'. Create one with a colour to tell them apart in the editor."
        addLabel="Add placement"
        onAdd={() => setEditing(null)}
        noMatch={total > 0 && visible.length === 0}
        noMatchTitle="No placement matches your search"
      />
      <CardGrid label="Placements">
        {visible.map((p) => (
          <CardCell key={p.id}>
            <Card component="article" aria-label={p.localized_name}>
              <CardContent>
                <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1.5 }}>
                  <Box
                    aria-hidden
                    sx={{
                      width: 28,
                      height: 28,
                      borderRadius: 1,
                      bgcolor: p.color,
                      border: 1,
                      borderColor: 'divider',
                      flexShrink: 0,
                    }}
                  />
                  <Typography variant="subtitle1" component="h3" noWrap title={p.localized_name}>
                    {p.localized_name}
                  </Typography>
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  Name:{' '}
                  <Box component="span" sx={{ color: 'text.primary' }}>
                    {p.localized_name}
                  </Box>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  Color:{' '}
                  <Box component="span" sx={{ color: 'text.primary', fontFamily: 'monospace' }}>
                    {p.color}
                  </Box>
                </Typography>
                <FormControlLabel
                  sx={{ mt: 0.5, ml: -1 }}
                  control={
                    <Checkbox
                      size="small"
                      checked={p.manual}
                      readOnly
                      disableRipple
                      tabIndex={-1}
                      sx={{ pointerEvents: 'none' }}
                    />
                  }
                  label={<Typography variant="body2">Manual</Typography>}
                />
              </CardContent>
              <CardActions disableSpacing sx={{ pt: 0 }}>
                <EditButton name={p.localized_name} onClick={() => setEditing(p)} />
                {/* Spec: only manual placements can be deleted. */}
                {p.manual && <DeleteButton name={p.localized_name} onClick={() => setDeleting(p)} />}
              </CardActions>
            </Card>
          </CardCell>
        ))}
      </CardGrid>
      <AddFab label="Add placement" onClick={() => setEditing(null)} />
      <PlacementDialog placement={editing} onClose={() => setEditing(undefined)} />
      <DeleteDialog
        name={deleting?.localized_name ?? null}
        message="The placement is removed for good. This cannot be undone."
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </PageLayout>
  );
}
