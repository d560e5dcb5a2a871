import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { EmptyState } from './empty-state';

interface Props {
  /** Shows the progress bar, labelled `loadingLabel`. */
  loading: boolean;
  loadingLabel: string;
  /** The list loaded and holds nothing: shows the first-use hint with an add button. */
  empty: boolean;
  icon: ReactNode;
  emptyTitle: string;
  emptyHint: string;
  addLabel: string;
  onAdd(): void;
  /** The list holds records but the search hides them all. */
  noMatch: boolean;
  noMatchTitle: string;
}

/** The loading bar and the two empty states above a searchable card list. */
export function ListStates(props: Props) {
  return (
    <>
      {props.loading && <LinearProgress sx={{ mb: 2 }} aria-label={props.loadingLabel} />}
      {props.empty && (
        <EmptyState
          icon={props.icon}
          title={props.emptyTitle}
          hint={props.emptyHint}
          action={
            <Button variant="contained" onClick={props.onAdd}>
              {props.addLabel}
            </Button>
          }
        />
      )}
      {props.noMatch && (
        <EmptyState title={props.noMatchTitle} hint="Try another name or clear the search box." />
      )}
    </>
  );
}
