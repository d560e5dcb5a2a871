import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { profileApi } from '../api/profile-api';
import { QK } from '../api/query-keys';
import { setToken } from '../auth/token-store';
import { LOGIN_ERROR_MS, loginErrorMessage } from './login-errors';

export default function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<{ key: number; message: string } | null>(null);

  const login = useMutation({
    mutationFn: () => profileApi.login({ username: username.trim(), password }),
    onSuccess: (session) => {
      queryClient.setQueryData(QK.profile, { user: session.user, organization: session.organization });
      setToken(session.token);
      navigate('/', { replace: true });
    },
    onError: (e) => setError({ key: Date.now(), message: loginErrorMessage(e) }),
  });
  const canSubmit = username.trim().length > 0 && password.length > 0 && !login.isPending;

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        background: 'linear-gradient(135deg, #eef2fb 0%, #dfe7fb 100%)',
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
        <Stack spacing={1} alignItems="center" sx={{ mb: 3 }}>
          <Box
            aria-hidden
            sx={{
              width: 48,
              height: 48,
              borderRadius: 2.5,
              bgcolor: 'primary.main',
              color: '#fff',
              display: 'grid',
              placeItems: 'center',
              fontWeight: 700,
              fontSize: 20,
            }}
          >
            LR
          </Box>
          <Typography variant="h5" component="h1">
            Logo Review
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Sign in with your organization account
          </Typography>
        </Stack>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (canSubmit) login.mutate();
          }}
        >
          <Stack spacing={2.5}>
            <TextField
              label="Username"
              name="username"
              autoComplete="username"
              autoFocus
              required
              fullWidth
              size="medium"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
            <TextField
              label="Password"
              name="password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              required
              fullWidth
              size="medium"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={showPassword ? 'Hide password' : 'Show password'}
                        onClick={() => setShowPassword((s) => !s)}
                        edge="end"
                      >
                        {showPassword ? <VisibilityOff /> : <Visibility />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Button type="submit" variant="contained" size="large" disabled={!canSubmit}>
              {login.isPending ? 'Logging in…' : 'Log in'}
            </Button>
          </Stack>
        </form>
      </Paper>
      <Snackbar
        key={error?.key}
        open={error !== null}
        autoHideDuration={LOGIN_ERROR_MS}
        onClose={(_e, reason) => reason !== 'clickaway' && setError(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert severity="error" variant="filled" onClose={() => setError(null)}>
          {error?.message}
        </Alert>
      </Snackbar>
    </Box>
  );
}
