import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from '@mui/material/styles';
import { createQueryClient } from '../src/api/query-client';
import { theme } from '../src/theme/theme';

/** Renders a component inside the app's providers at a route (with a given query cache, if any). */
export function renderWithApp(
  ui: ReactElement,
  {
    route = '/under-test',
    path = '/under-test',
    queryClient = createQueryClient(),
  }: { route?: string; path?: string; queryClient?: QueryClient } = {},
) {
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="/" element={<p>Home page</p>} />
          </Routes>
        </MemoryRouter>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
