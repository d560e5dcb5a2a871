import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { RedirectIfAuthed, RequireAuth } from './auth/route-guards';
import { UnauthorizedListener } from './auth/auth-events';
import { AppShell } from './shell/app-shell';
import { LeavePageGuard } from './shell/leave-page-guard';
import { LoadingOverlay } from './shell/loading-overlay';
import { StatusSnackbar } from './shell/status-snackbar';

// Every page is its own chunk, so the first load carries only the shell.
const LoginPage = lazy(() => import('./pages/login-page'));
const DashboardPage = lazy(() => import('./analytics/dashboard-page'));
const BrandsPage = lazy(() => import('./brands/brands-page'));
const PlacementsPage = lazy(() => import('./placements/placements-page'));
const VideosPage = lazy(() => import('./videos/videos-page'));
const VerificationPage = lazy(() => import('./verification/verification-page'));
const ProjectsPage = lazy(() => import('./projects/projects-page'));
const TagsPage = lazy(() => import('./tags/tags-page'));
const EditorPage = lazy(() => import('./editor/editor-page'));

export function App() {
  return (
    <>
      <UnauthorizedListener />
      <LeavePageGuard />
      <Routes>
        <Route
          path="/login"
          element={
            <RedirectIfAuthed>
              <LoginPage />
            </RedirectIfAuthed>
          }
        />
        <Route
          element={
            <RequireAuth>
              <AppShell />
            </RequireAuth>
          }
        >
          <Route index element={<DashboardPage />} />
          <Route path="brands" element={<BrandsPage />} />
          <Route path="placements" element={<PlacementsPage />} />
          <Route path="videos" element={<VideosPage />} />
          <Route path="verification" element={<VerificationPage />} />
          <Route path="projects" element={<ProjectsPage />} />
          <Route path="tags" element={<TagsPage />} />
          <Route path="editor" element={<EditorPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
      <StatusSnackbar />
      <LoadingOverlay />
    </>
  );
}
