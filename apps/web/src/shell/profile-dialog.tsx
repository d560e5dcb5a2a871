import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '@logo-review/contract';
import { profileApi } from '../api/profile-api';
import { QK } from '../api/query-keys';
import { notify } from '../state/status-store';
import { isValidEmail } from '../components/validation';
import { formatError } from '../api/api-error';

export type ProfileView = 'profile' | 'organization';

interface Props {
  view: ProfileView | null;
  profile: Profile | undefined;
  onViewChange(view: ProfileView): void;
  onClose(): void;
}

/** The profile and organization views share one dialog (spec: shell). */
export function ProfileDialog({ view, profile, onViewChange, onClose }: Props) {
  return (
    <Dialog
      open={view !== null}
      onClose={onClose}
      aria-label={view === 'organization' ? 'My organization' : 'Profile'}
    >
      <Tabs
        value={view ?? 'profile'}
        onChange={(_e, v: ProfileView) => onViewChange(v)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="profile" label="Profile" />
        <Tab value="organization" label="My organization" />
      </Tabs>
      {view === 'organization' ? (
        <OrganizationView profile={profile} onClose={onClose} />
      ) : (
        // Keyed so the form starts from the freshest profile every time it opens.
        <ProfileForm key={profile?.user.id ?? 0} profile={profile} onClose={onClose} />
      )}
    </Dialog>
  );
}

function ProfileForm({ profile, onClose }: { profile: Profile | undefined; onClose(): void }) {
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(profile?.user.first_name ?? '');
  const [lastName, setLastName] = useState(profile?.user.last_name ?? '');
  const [email, setEmail] = useState(profile?.user.email ?? '');
  const save = useMutation({
    mutationFn: () =>
      profileApi.update({
        user: { first_name: firstName.trim(), last_name: lastName.trim(), email: email.trim() },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(QK.profile, updated);
      notify.success('Your profile has been updated.');
      onClose();
    },
    // Spec: a profile update failure shows no visible message.
    onError: (error) => console.warn('Profile update failed', error),
  });
  const emailValid = isValidEmail(email);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (emailValid) save.mutate();
      }}
    >
      <DialogContent>
        <Stack spacing={2.5}>
          <TextField
            label="Username"
            value={profile?.user.username ?? ''}
            slotProps={{ input: { readOnly: true } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Name"
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              fullWidth
            />
            <TextField
              label="Last Name"
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
              fullWidth
            />
          </Stack>
          <TextField
            label="Email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={email.length > 0 && !emailValid}
            helperText={email.length > 0 && !emailValid ? 'Enter a valid email address' : ' '}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Close</Button>
        <Button type="submit" variant="contained" disabled={!emailValid || save.isPending}>
          Save
        </Button>
      </DialogActions>
    </form>
  );
}

function OrganizationView({ profile, onClose }: { profile: Profile | undefined; onClose(): void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  /** The new key, shown in full only until the dialog closes. */
  const [fresh, setFresh] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: profileApi.rotateApiKey,
    onSuccess: (r) => {
      setFresh(r.api_key);
      setConfirming(false);
      return queryClient.invalidateQueries({ queryKey: QK.profile });
    },
    onError: (error) => notify.error(formatError(error, 'Error rotating the API key')),
  });
  const apiKey = fresh ?? profile?.organization.api_key ?? '';
  return (
    <>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label="Organization"
            value={profile?.organization.name ?? ''}
            slotProps={{ input: { readOnly: true } }}
          />
          <TextField
            label="API key"
            value={apiKey}
            helperText={
              fresh
                ? 'Copy the new key now: it is shown only this once. The old key no longer works.'
                : 'Scripts send it as "Authorization: Api-Key <key>". Only a masked form is kept for display.'
            }
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: 'monospace' },
                endAdornment: fresh ? (
                  <InputAdornment position="end">
                    <Tooltip title="Copy API key">
                      <IconButton
                        aria-label="Copy API key"
                        edge="end"
                        onClick={() =>
                          void navigator.clipboard
                            ?.writeText(fresh)
                            .then(() => notify.info('API key copied.'))
                        }
                      >
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ) : undefined,
              },
            }}
          />
          {confirming && (
            <Alert
              severity="warning"
              action={
                <Stack direction="row" spacing={1}>
                  <Button color="inherit" size="small" onClick={() => setConfirming(false)}>
                    Cancel
                  </Button>
                  <Button
                    color="warning"
                    size="small"
                    variant="contained"
                    disabled={rotate.isPending}
                    onClick={() => rotate.mutate()}
                  >
                    Rotate
                  </Button>
                </Stack>
              }
            >
              Scripts using the current key will stop working.
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="warning" disabled={confirming || rotate.isPending} onClick={() => setConfirming(true)}>
          Rotate API key
        </Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </>
  );
}
