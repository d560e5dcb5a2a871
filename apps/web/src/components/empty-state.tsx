import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface Props {
  icon?: ReactNode;
  title: string;
  /** Tells the user what to do next. */
  hint: string;
  action?: ReactNode;
}

export function EmptyState({ icon, title, hint, action }: Props) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 3, sm: 6 }, textAlign: 'center', borderStyle: 'dashed', bgcolor: 'transparent' }}
    >
      <Stack spacing={1.5} alignItems="center">
        {icon && <Stack sx={{ color: 'text.disabled', '& svg': { fontSize: 48 } }}>{icon}</Stack>}
        <Typography variant="h6" component="p">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 420 }}>
          {hint}
        </Typography>
        {action}
      </Stack>
    </Paper>
  );
}
