import { useCallback, useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** Cards rendered at first and added per step: enough to fill two screens at 6 columns. */
export const RENDER_STEP = 60;

/**
 * How many cards to render. With 1,000 brands or videos, rendering every card up front costs
 * seconds; rendering the first ones and adding more as the user scrolls keeps both the first
 * paint and search typing fast. Starts over whenever `resetKey` (the search) changes.
 */
export function useRenderBudget(resetKey: unknown, step = RENDER_STEP): [number, () => void] {
  const [state, setState] = useState({ key: resetKey, budget: step });
  if (!Object.is(state.key, resetKey)) setState({ key: resetKey, budget: step });
  const more = useCallback(() => setState((s) => ({ ...s, budget: s.budget + step })), [step]);
  return [Object.is(state.key, resetKey) ? state.budget : step, more];
}

/** Placed after the rendered cards: asks for more when it comes near the viewport, or on click. */
export function RenderMore({ shown, total, onMore }: { shown: number; total: number; onMore(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node || shown >= total || typeof IntersectionObserver === 'undefined') return;
    // Re-observed after every step, so it keeps adding while it stays near the viewport.
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && onMore(),
      {
        rootMargin: '600px 0px',
      },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [shown, total, onMore]);
  if (shown >= total) return null;
  return (
    <Stack ref={ref} direction="row" spacing={2} alignItems="center" justifyContent="center" sx={{ py: 3 }}>
      <Typography variant="body2" color="text.secondary">
        Showing {shown} of {total}
      </Typography>
      <Button variant="outlined" size="small" onClick={onMore}>
        Show more
      </Button>
    </Stack>
  );
}
