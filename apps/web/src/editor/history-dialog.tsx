import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { DetectionHistoryEntry } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { reviewApi } from '../api/review-api';

/** A detection's history (issue 17, item 8): who did what and when, newest first. */
export function HistoryDialog({ detectionId, onClose }: { detectionId: number | null; onClose(): void }) {
  const [entries, setEntries] = useState<DetectionHistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (detectionId === null) return;
    let live = true;
    setEntries(null);
    setError(null);
    reviewApi
      .history(detectionId)
      .then((list) => live && setEntries(list))
      .catch((e: unknown) => live && setError(formatError(e, 'Error retrieving the history')));
    return () => {
      live = false;
    };
  }, [detectionId]);
  return (
    <Dialog
      open={detectionId !== null}
      onClose={onClose}
      aria-labelledby="history-title"
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="history-title">History of detection {detectionId}</DialogTitle>
      <DialogContent>
        {error && <Typography color="error">{error}</Typography>}
        {entries === null && !error && <Typography color="text.secondary">Loading…</Typography>}
        {entries !== null && entries.length === 0 && (
          <Typography color="text.secondary">Nothing recorded yet.</Typography>
        )}
        {entries !== null && entries.length > 0 && (
          <Table size="small" aria-label="Detection history">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>Who</TableCell>
                <TableCell>What</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map((e, i) => (
                <TableRow key={i}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(e.at).toLocaleString()}</TableCell>
                  <TableCell>{e.user ?? 'API key'}</TableCell>
                  <TableCell>
                    {e.action}
                    {e.detail && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {e.detail}
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
