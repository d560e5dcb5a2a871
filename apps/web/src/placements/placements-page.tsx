import { useDeferredValue, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Placement } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { placementsApi } from '../api/placements-api';
import { usePlacements } from '../api/queries';
import { QK } from '../api/query-keys';
import { AddFab } from '../components/add-fab';
import { CardCell, CardGrid } from '../components/card-grid';
import { ConfirmDialog } from '../components/confirm-dialog';
import { EmptyState } from '../components/empty-state';
import { matchesSearch } from '../components/filter-by-name';
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
      {placements.isLoading && <LinearProgress sx={{ mb: 2 }} aria-label="Loading placements" />}
      {placements.isSuccess && total === 0 && (
        <EmptyState
          icon={<PlaceIcon />}
          title="No placements yet"
          hint="Placements name the zones where a brand shows up, such as 'Shirt' or 'LED board'. Create one with a colour to tell them apart in the editor."
          action={
            <Button variant="contained" onClick={() => setEditing(null)}>
              Add placement
            </Button>
          }
        />
      )}
      {total > 0 && visible.length === 0 && (
        <EmptyState
          title="No placement matches your search"
          hint="Try another name or clear the search box."
        />
      )}
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
                <IconButton
                  title="Edit"
                  aria-label={`Edit ${p.localized_name}`}
                  onClick={() => setEditing(p)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                {/* Spec: only manual placements can be deleted. */}
                {p.manual && (
                  <IconButton
                    title="Delete"
                    aria-label={`Delete ${p.localized_name}`}
                    onClick={() => setDeleting(p)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                )}
              </CardActions>
            </Card>
          </CardCell>
        ))}
      </CardGrid>
      <AddFab label="Add placement" onClick={() => setEditing(null)} />
      <PlacementDialog placement={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.localized_name ?? ''}?`}
        message="The placement is removed for good. This cannot be undone."
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </PageLayout>
  );
}
