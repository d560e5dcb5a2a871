import type { ReactNode } from 'react';
import Grid from '@mui/material/Grid';

/** Spec: card grids use xs12 sm6 md4 lg3 xl2 (1, 2, 3, 4 and 6 columns). */
export const CARD_SIZE = { xs: 12, sm: 6, md: 4, lg: 3, xl: 2 } as const;

/**
 * `expandable`: cards that open in place keep their own height, so opening one does not stretch
 * its whole row.
 */
export function CardGrid({
  children,
  label,
  expandable,
}: {
  children: ReactNode;
  label?: string;
  expandable?: boolean;
}) {
  return (
    <Grid
      container
      spacing={2}
      role="list"
      aria-label={label}
      alignItems={expandable ? 'flex-start' : 'stretch'}
      sx={expandable ? { '& .MuiCard-root': { height: 'auto' } } : undefined}
    >
      {children}
    </Grid>
  );
}

export function CardCell({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <Grid size={CARD_SIZE} role="listitem" aria-label={label}>
      {children}
    </Grid>
  );
}
