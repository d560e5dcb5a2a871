import type { ReactNode } from 'react';
import Typography from '@mui/material/Typography';

/** One 'Label: value' line of a card, the value in the primary text colour; long values wrap anywhere. */
export function CardField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
      {label}:{' '}
      <Typography component="span" variant="body2" color="text.primary">
        {children}
      </Typography>
    </Typography>
  );
}
