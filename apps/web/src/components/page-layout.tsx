import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';

interface Props {
  /** Left of the toolbar: usually the search box (and the breadcrumb on Videos). */
  toolbar?: ReactNode;
  /** Right of the toolbar: primary actions such as the add button. */
  actions?: ReactNode;
  children: ReactNode;
}

/** The common page frame: a toolbar row, then the content, with the same padding everywhere. */
export function PageLayout({ toolbar, actions, children }: Props) {
  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, pb: 12, width: '100%', maxWidth: 2200, mx: 'auto' }}>
      {(toolbar || actions) && (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          alignItems={{ xs: 'stretch', sm: 'center' }}
          sx={{ mb: 3 }}
        >
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>{toolbar}</Box>
          {actions && (
            <Stack direction="row" spacing={1} justifyContent="flex-end">
              {actions}
            </Stack>
          )}
        </Stack>
      )}
      {children}
    </Box>
  );
}
