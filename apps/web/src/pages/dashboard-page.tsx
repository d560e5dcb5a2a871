import { Link as RouterLink } from 'react-router-dom';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CardCell, CardGrid } from '../components/card-grid';
import { PageLayout } from '../components/page-layout';
import { NAV_ITEMS } from '../shell/nav-items';

const HINTS: Record<string, string> = {
  '/brands': 'Add brands and their example logos.',
  '/placements': 'Define where a brand appears.',
  '/videos': 'Upload videos and organize folders.',
  '/verification': 'Render verification videos.',
  '/projects': 'Choose which brands a project shows.',
  '/tags': 'Link brands, placements and projects.',
  '/editor': 'Review detections frame by frame.',
};

/** Spec: the dashboard is a placeholder; it only points to the sections. */
export default function DashboardPage() {
  return (
    <PageLayout>
      <Typography variant="h5" component="h2" sx={{ mb: 0.5 }}>
        Welcome to Logo Review
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Pick a section to get started.
      </Typography>
      <CardGrid label="Sections">
        {NAV_ITEMS.filter((i) => i.path !== '/').map((item) => (
          <CardCell key={item.path} label={item.label}>
            <Card>
              <CardActionArea component={RouterLink} to={item.path} sx={{ height: '100%' }}>
                <CardContent>
                  <Stack
                    direction="row"
                    spacing={1.5}
                    alignItems="center"
                    sx={{ mb: 1, color: 'primary.main' }}
                  >
                    {item.icon}
                    <Typography variant="subtitle1" color="text.primary">
                      {item.label}
                    </Typography>
                  </Stack>
                  <Typography variant="body2" color="text.secondary">
                    {HINTS[item.path]}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </CardCell>
        ))}
      </CardGrid>
    </PageLayout>
  );
}
