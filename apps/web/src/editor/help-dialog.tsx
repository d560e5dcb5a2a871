import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { REVIEW_KEYS } from '@logo-review/review-canvas';

/** The spec's hotkeys (section 2), as the help lists them. */
const SPEC_KEYS: ReadonlyArray<[string, string]> = [
  ['m', 'Play mode (NORMAL / SECONDS)'],
  ['f', 'Filters'],
  ['v', 'Show or hide filtered detections'],
  ['p', 'Play / pause'],
  ['→ / ←', 'Next / previous frame'],
  ['Ctrl+→ / Ctrl+←', 'Next / previous second'],
  ['+ / -', 'Speed up / down'],
  ['n / b', 'Next / previous detection'],
  ['Esc', 'Cancel drawing or a drag; dismiss a proposed track'],
];

function KeyRows({ rows }: { rows: ReadonlyArray<[string, string]> }) {
  return (
    <Table size="small">
      <TableBody>
        {rows.map(([keys, help]) => (
          <TableRow key={keys}>
            <TableCell sx={{ width: 170, fontFamily: 'monospace', fontWeight: 600 }}>{keys}</TableCell>
            <TableCell>{help}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Every editor key (`?`): the spec's hotkeys and the review keys. */
export function HelpDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="editor-help-title" maxWidth="sm" fullWidth>
      <DialogTitle id="editor-help-title">Keyboard</DialogTitle>
      <DialogContent>
        <Typography variant="subtitle2" sx={{ mt: 1 }}>
          Review
        </Typography>
        <KeyRows rows={REVIEW_KEYS.map((k) => [k.keys, k.help] as [string, string])} />
        <Typography variant="subtitle2" sx={{ mt: 2 }}>
          Playback and view
        </Typography>
        <KeyRows rows={SPEC_KEYS} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
