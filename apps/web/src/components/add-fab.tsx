import Fab from '@mui/material/Fab';
import AddIcon from '@mui/icons-material/Add';

/** The floating add button at the bottom right of a page. */
export function AddFab({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <Fab
      color="primary"
      aria-label={label}
      onClick={onClick}
      sx={{ position: 'fixed', right: { xs: 16, sm: 32 }, bottom: { xs: 16, sm: 32 } }}
    >
      <AddIcon />
    </Fab>
  );
}
