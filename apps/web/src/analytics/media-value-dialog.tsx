import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { formatError } from '../api/api-error';
import { notify } from '../state/status-store';
import { analyticsApi, type AnalyticsSettings, type AnalyticsSettingsBody } from './analytics-api';

export const SETTINGS_KEY = ['analytics', 'settings'] as const;

export interface SettingsForm {
  currency: string;
  countUnreviewed: boolean;
  /** Placement id -> the rate as typed. */
  rates: Record<number, string>;
}

export const formFromSettings = (s: AnalyticsSettings): SettingsForm => ({
  currency: s.currency,
  countUnreviewed: s.count_unreviewed,
  rates: Object.fromEntries(s.rates.map((r) => [r.placement.id, String(r.rate_per_second)])),
});

/** Checks the form: a field error per field name (currency, or the placement id), or the request body. */
export function settingsBody(
  form: SettingsForm,
): { body: AnalyticsSettingsBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!/^[A-Z]{3}$/.test(form.currency)) errors.currency = 'Three capital letters (ISO 4217), e.g. EUR.';
  const rates: { placement_id: number; rate_per_second: number }[] = [];
  for (const [id, text] of Object.entries(form.rates)) {
    const value = text.trim() === '' ? 0 : Number(text);
    if (!Number.isFinite(value) || value < 0) errors[id] = 'A number, 0 or more.';
    else rates.push({ placement_id: Number(id), rate_per_second: value });
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { currency: form.currency, count_unreviewed: form.countUnreviewed, rates } };
}

/** Organization settings for the media value: a rate per second per placement, and a currency. */
export default function MediaValueDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: analyticsApi.settings, enabled: open });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="media-value-title">
      <DialogTitle id="media-value-title">Media value settings</DialogTitle>
      {settings.isError ? (
        <DialogContent>
          <Alert severity="error">
            {formatError(settings.error, 'Error retrieving the media value settings')}
          </Alert>
        </DialogContent>
      ) : !settings.data ? (
        <DialogContent>
          <Skeleton variant="rounded" height={160} />
        </DialogContent>
      ) : (
        // Keyed so the form starts from the freshest settings every time it opens.
        <SettingsFormView key={settings.dataUpdatedAt} settings={settings.data} onClose={onClose} />
      )}
    </Dialog>
  );
}

function SettingsFormView({ settings, onClose }: { settings: AnalyticsSettings; onClose(): void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => formFromSettings(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: analyticsApi.saveSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      void queryClient.invalidateQueries({ queryKey: ['analytics', 'dashboard'] });
      notify.success('Saved the media value settings.');
      onClose();
    },
  });
  const submit = () => {
    const checked = settingsBody(form);
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    save.mutate(checked.body);
  };
  return (
    <>
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', pt: 1 }}>
          <TextField
            label="Currency"
            value={form.currency}
            onChange={(e) => setForm({ ...form, currency: e.target.value.toUpperCase() })}
            error={Boolean(errors.currency)}
            helperText={errors.currency ?? 'ISO 4217 code'}
            slotProps={{ htmlInput: { maxLength: 3 } }}
            sx={{ width: 140 }}
          />
          <FormControlLabel
            control={
              <Switch
                checked={form.countUnreviewed}
                onChange={(e) => setForm({ ...form, countUnreviewed: e.target.checked })}
              />
            }
            label="Count unreviewed detections"
          />
        </Box>
        <Table size="small" aria-label="Rates per placement" sx={{ mt: 2 }}>
          <TableHead>
            <TableRow>
              <TableCell>Placement</TableCell>
              <TableCell align="right">Rate per second ({form.currency || '?'})</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {settings.rates.map((r) => (
              <TableRow key={r.placement.id}>
                <TableCell>
                  <Box
                    component="span"
                    aria-hidden
                    sx={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: '50%',
                      bgcolor: r.placement.color,
                      mr: 1,
                    }}
                  />
                  {r.placement.localized_name}
                </TableCell>
                <TableCell align="right">
                  <TextField
                    size="small"
                    type="number"
                    value={form.rates[r.placement.id] ?? ''}
                    onChange={(e) =>
                      setForm({ ...form, rates: { ...form.rates, [r.placement.id]: e.target.value } })
                    }
                    error={Boolean(errors[r.placement.id])}
                    helperText={errors[r.placement.id]}
                    slotProps={{
                      htmlInput: {
                        min: 0,
                        step: 'any',
                        'aria-label': `Rate of ${r.placement.localized_name}`,
                      },
                    }}
                    sx={{ width: 140 }}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {save.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {formatError(save.error, 'Error saving the media value settings')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </>
  );
}
