import { lazy, Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import TasksIcon from '@mui/icons-material/CloudUploadOutlined';
import { useQuery } from '@tanstack/react-query';
import { useProfile } from '../api/queries';
import { QK } from '../api/query-keys';
import { videosApi } from '../api/videos-api';
import { useLogout } from '../auth/use-logout';
import { useStore } from '../state/create-store';
import { selectedVideoStore } from '../state/selected-video';
import { isActive, uploadStore } from '../state/upload-store';
import { greeting } from './greeting';
import { headerTitle } from './header-title';
import { NAV_ITEMS } from './nav-items';
import { OngoingTasksPanel } from './ongoing-tasks-panel';
import { ProfileDialog, type ProfileView } from './profile-dialog';

// Loaded when first opened: it is not part of the first page load.
const MediaValueDialog = lazy(() => import('../analytics/media-value-dialog'));

/** Spec: the drawer is 240 px wide. */
export const DRAWER_WIDTH = 240;

/** The signed-in frame: side navigation, header and the page. */
export function AppShell() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  // Open by default on a wide window; on a narrow one the drawer floats over the page instead.
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const drawerOpen = wide ? desktopOpen : mobileOpen;
  const toggleDrawer = () => (wide ? setDesktopOpen((o) => !o) : setMobileOpen((o) => !o));

  const { pathname } = useLocation();
  const profile = useProfile().data;
  const selectedVideo = useStore(selectedVideoStore);
  const onEditor = pathname === '/editor';
  const editorVideo = useQuery({
    queryKey: QK.video(selectedVideo ?? 0),
    queryFn: () => videosApi.get(selectedVideo ?? 0),
    enabled: onEditor && selectedVideo !== null,
  });
  // URL segments are shown capitalised ('videos' -> 'Videos'); a video's name keeps its own case.
  const editorVideoName = onEditor && selectedVideo !== null ? editorVideo.data?.name : null;
  const title = headerTitle(pathname, editorVideoName);

  const tasks = useStore(uploadStore);
  const activeUploads = tasks.filter(isActive).length;
  const [tasksOpen, setTasksOpen] = useState(false);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [profileView, setProfileView] = useState<ProfileView | null>(null);
  const [mediaValueOpen, setMediaValueOpen] = useState(false);
  const logout = useLogout();
  const user = profile?.user;
  const initials = user ? (user.first_name?.[0] ?? user.username[0] ?? '?').toUpperCase() : '?';

  const drawerContent = (
    <>
      <Toolbar sx={{ gap: 1.5 }}>
        <Box
          aria-hidden
          sx={{
            width: 32,
            height: 32,
            borderRadius: 2,
            bgcolor: 'primary.main',
            color: '#fff',
            display: 'grid',
            placeItems: 'center',
            fontWeight: 700,
          }}
        >
          LR
        </Box>
        <Typography variant="subtitle1" noWrap>
          Logo Review
        </Typography>
      </Toolbar>
      <Divider />
      <List component="nav" aria-label="Main navigation" sx={{ px: 1, py: 1.5 }}>
        {NAV_ITEMS.map((item) => {
          const selected = item.path === '/' ? pathname === '/' : pathname === item.path;
          return (
            <ListItemButton
              key={item.path}
              component={NavLink}
              to={item.path}
              end
              selected={selected}
              onClick={() => !wide && setMobileOpen(false)}
              sx={{ borderRadius: 2, mb: 0.5 }}
            >
              <ListItemIcon sx={{ minWidth: 40, color: selected ? 'primary.main' : undefined }}>
                {item.icon}
              </ListItemIcon>
              <ListItemText primary={item.label} />
            </ListItemButton>
          );
        })}
      </List>
    </>
  );

  const shift = wide && desktopOpen ? DRAWER_WIDTH : 0;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar
        position="fixed"
        color="inherit"
        sx={{
          width: `calc(100% - ${shift}px)`,
          ml: `${shift}px`,
          borderBottom: 1,
          borderColor: 'divider',
          transition: theme.transitions.create(['width', 'margin']),
        }}
      >
        <Toolbar sx={{ gap: 1 }}>
          <IconButton
            edge="start"
            aria-label={drawerOpen ? 'Collapse navigation' : 'Open navigation'}
            onClick={toggleDrawer}
          >
            {drawerOpen ? <MenuOpenIcon /> : <MenuIcon />}
          </IconButton>
          <Typography
            variant="h6"
            component="h1"
            noWrap
            sx={{ flexGrow: 1, textTransform: editorVideoName ? 'none' : 'capitalize', minWidth: 0 }}
            data-testid="page-title"
          >
            {title}
          </Typography>
          {user && (
            <Typography
              variant="body2"
              color="text.secondary"
              noWrap
              sx={{ display: { xs: 'none', sm: 'block' } }}
            >
              {greeting(user)}
            </Typography>
          )}
          <Tooltip title="Ongoing tasks">
            <IconButton aria-label="Ongoing tasks" onClick={() => setTasksOpen(true)}>
              <Badge badgeContent={activeUploads} color="primary">
                <TasksIcon />
              </Badge>
            </IconButton>
          </Tooltip>
          <IconButton
            aria-label="Profile menu"
            aria-haspopup="menu"
            aria-expanded={menuAnchor ? 'true' : undefined}
            onClick={(e) => setMenuAnchor(e.currentTarget)}
          >
            <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main', fontSize: 15 }}>{initials}</Avatar>
          </IconButton>
        </Toolbar>
        {activeUploads > 0 && <LinearProgress sx={{ height: 2 }} aria-label="Upload running" />}
      </AppBar>
      <Menu
        anchorEl={menuAnchor}
        open={menuAnchor !== null}
        onClose={() => setMenuAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {user && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1, display: { sm: 'none' } }}>
            {greeting(user)}
          </Typography>
        )}
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setProfileView('profile');
          }}
        >
          Profile
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setProfileView('organization');
          }}
        >
          My organization
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setMediaValueOpen(true);
          }}
        >
          Media value settings
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            logout();
          }}
        >
          Logout
        </MenuItem>
      </Menu>
      <Drawer
        variant={wide ? 'persistent' : 'temporary'}
        open={drawerOpen}
        onClose={() => setMobileOpen(false)}
        sx={{
          width: wide && desktopOpen ? DRAWER_WIDTH : 0,
          flexShrink: 0,
          transition: theme.transitions.create('width'),
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
        }}
      >
        {drawerContent}
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Suspense fallback={<LinearProgress aria-label="Loading page" />}>
          <Outlet />
        </Suspense>
      </Box>
      <OngoingTasksPanel open={tasksOpen} onClose={() => setTasksOpen(false)} />
      <ProfileDialog
        view={profileView}
        profile={profile}
        onViewChange={setProfileView}
        onClose={() => setProfileView(null)}
      />
      {mediaValueOpen && (
        <Suspense fallback={null}>
          <MediaValueDialog open onClose={() => setMediaValueOpen(false)} />
        </Suspense>
      )}
    </Box>
  );
}
