import { useDeferredValue, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import BrandIcon from '@mui/icons-material/BrandingWatermarkOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Brand } from '@logo-review/contract';
import { brandsApi } from '../api/brands-api';
import { formatError } from '../api/api-error';
import { useBrands } from '../api/queries';
import { QK } from '../api/query-keys';
import { AddFab } from '../components/add-fab';
import { CardCell, CardGrid } from '../components/card-grid';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DeleteDialog } from '../components/delete-dialog';
import { matchesSearch } from '../components/filter-by-name';
import { ListStates } from '../components/list-states';
import { PageLayout } from '../components/page-layout';
import { RenderMore, useRenderBudget } from '../components/progressive-list';
import { SearchBox } from '../components/search-box';
import { notify } from '../state/status-store';
import { BrandCard, type BrandCardActions } from './brand-card';
import { BrandDialog } from './brand-dialog';
import { groupBrands, SINGLE_BRANDS } from './brand-groups';

export default function BrandsPage() {
  const queryClient = useQueryClient();
  const brands = useBrands();
  const [search, setSearch] = useState('');
  // The input updates at once; the 1,000-card grid follows in a lower-priority render.
  const deferredSearch = useDeferredValue(search);
  const [editing, setEditing] = useState<Brand | null | undefined>(undefined);
  const [deactivating, setDeactivating] = useState<Brand | null>(null);
  const [deleting, setDeleting] = useState<Brand | null>(null);

  const grouped = useMemo(() => groupBrands(brands.data ?? []), [brands.data]);
  const sections = useMemo(() => {
    const keep = (b: Brand) => matchesSearch(deferredSearch, b.name, b.localized_name);
    const list = grouped.groups.map((g) => ({ title: g.title, brands: g.brands.filter(keep) }));
    list.push({ title: SINGLE_BRANDS, brands: grouped.singles.filter(keep) });
    return list.filter((s) => s.brands.length > 0);
  }, [grouped, deferredSearch]);
  const [budget, renderMore] = useRenderBudget(deferredSearch);
  const matching = sections.reduce((n, s) => n + s.brands.length, 0);
  // The first `budget` cards in display order; later sections come as the user scrolls.
  const rendered = useMemo(() => {
    let left = budget;
    return sections
      .map((s) => {
        const take = Math.max(0, Math.min(left, s.brands.length));
        left -= take;
        return { ...s, shown: s.brands.slice(0, take) };
      })
      .filter((s) => s.shown.length > 0);
  }, [sections, budget]);

  const refresh = useMutation({
    mutationFn: () => brandsApi.list(true),
    onSuccess: (list) => {
      queryClient.setQueryData(QK.brands, list);
      notify.success('Checked for new brand data and updated.');
    },
    onError: (error) => notify.error(formatError(error, 'Error retriving brands')),
  });
  const deactivate = useMutation({
    mutationFn: (brand: Brand) => brandsApi.deactivate(brand.id),
    onSuccess: () => {
      notify.success('Successufuly deactivated Brand');
      setDeactivating(null);
      return queryClient.invalidateQueries({ queryKey: QK.brands });
    },
    onError: (error) => notify.error(formatError(error, 'Error deactivating brand')),
  });
  const remove = useMutation({
    mutationFn: (brand: Brand) => brandsApi.remove(brand.id),
    onSuccess: () => {
      notify.success('Successufuly deleted Brand');
      setDeleting(null);
      return queryClient.invalidateQueries({ queryKey: QK.brands });
    },
    onError: (error) => notify.error(formatError(error, 'Error deleting brand')),
  });

  // Stable identity so memoised cards are not re-rendered by page state changes.
  const actions = useMemo<BrandCardActions>(
    () => ({ onEdit: setEditing, onDeactivate: setDeactivating, onDelete: setDeleting }),
    [],
  );

  // Built only when the (deferred) result changes: a keystroke's urgent render skips the whole grid.
  const cards = useMemo(
    () => (
      <>
        {rendered.map((section) => (
          <Box component="section" key={section.title} aria-label={section.title}>
            <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1.5 }}>
              <Typography variant="h6" component="h2">
                {section.title}
              </Typography>
              <Chip size="small" label={section.brands.length} />
            </Stack>
            <CardGrid label={`${section.title} brands`} expandable>
              {section.shown.map((brand) => (
                <CardCell key={brand.id}>
                  <BrandCard brand={brand} actions={actions} />
                </CardCell>
              ))}
            </CardGrid>
          </Box>
        ))}
      </>
    ),
    [rendered, actions],
  );

  const total = brands.data?.length ?? 0;
  return (
    <PageLayout
      toolbar={<SearchBox value={search} onChange={setSearch} label="Search brands" />}
      actions={
        <Button
          variant="outlined"
          startIcon={<RefreshIcon />}
          onClick={() => refresh.mutate()}
          disabled={refresh.isPending}
        >
          Check for new brand data
        </Button>
      }
    >
      <ListStates
        loading={brands.isLoading || refresh.isPending}
        loadingLabel="Loading brands"
        empty={brands.isSuccess && total === 0}
        icon={<BrandIcon />}
        emptyTitle="No brands yet"
        emptyHint="Add your first brand with a few example logo images; detection starts once its logos are activated."
        addLabel="Add brand"
        onAdd={() => setEditing(null)}
        noMatch={total > 0 && sections.length === 0}
        noMatchTitle="No brand matches your search"
      />
      <Stack spacing={4} sx={{ opacity: search !== deferredSearch ? 0.7 : 1, transition: 'opacity 120ms' }}>
        {cards}
      </Stack>
      <RenderMore shown={Math.min(budget, matching)} total={matching} onMore={renderMore} />
      <AddFab label="Add brand" onClick={() => setEditing(null)} />
      <BrandDialog brand={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deactivating !== null}
        title={`Deactivate ${deactivating?.name ?? ''}?`}
        message="Future videos will not contain this brand. Detections found earlier are kept."
        confirmLabel="Deactivate"
        busy={deactivate.isPending}
        onConfirm={() => deactivating && deactivate.mutate(deactivating)}
        onClose={() => setDeactivating(null)}
      />
      <DeleteDialog
        name={deleting?.name ?? null}
        message="This cannot be undone. The brand, its logos and every detection found for it are removed."
        typeName
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </PageLayout>
  );
}
