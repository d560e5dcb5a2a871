import { useDeferredValue, useState } from 'react';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { matchesSearch } from '../components/filter-by-name';
import { SearchBox } from '../components/search-box';

export interface VisibilityItem {
  id: number;
  label: string;
}

interface Props {
  /** 'brands' or 'placements', used in texts and labels. */
  noun: string;
  items: VisibilityItem[];
  hidden: Set<number>;
  onChange(hidden: Set<number>): void;
  emptyHint: string;
}

/** One switch per record: on = shown in the project, off = hidden (sent as filtered_*). */
export function VisibilityList({ noun, items, hidden, onChange, emptyHint }: Props) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const visible = items.filter((i) => matchesSearch(deferred, i.label));
  const toggle = (id: number) => {
    const next = new Set(hidden);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  const setAll = (show: boolean) => {
    const next = new Set(hidden);
    visible.forEach((i) => (show ? next.delete(i.id) : next.add(i.id)));
    onChange(next);
  };
  if (items.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
        {emptyHint}
      </Typography>
    );
  }
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
        <SearchBox value={search} onChange={setSearch} label={`Search ${noun}`} />
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => setAll(true)}>
            Show all
          </Button>
          <Button size="small" onClick={() => setAll(false)}>
            Hide all
          </Button>
        </Stack>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {items.length - hidden.size} of {items.length} {noun} shown
      </Typography>
      <List
        dense
        sx={{ maxHeight: 360, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
      >
        {visible.map((item) => (
          <ListItem
            key={item.id}
            secondaryAction={
              <Switch
                edge="end"
                checked={!hidden.has(item.id)}
                onChange={() => toggle(item.id)}
                slotProps={{ input: { 'aria-label': `Show ${item.label}` } }}
              />
            }
          >
            <ListItemText primary={item.label} />
          </ListItem>
        ))}
      </List>
    </Stack>
  );
}
