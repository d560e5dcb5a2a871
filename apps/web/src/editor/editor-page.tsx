import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * Placeholder of the editor route. The editor issue replaces this file with the real editor
 * (packages/review-canvas inside a React shell); it is lazy-loaded so its weight never reaches
 * the initial bundle.
 */
export default function EditorPage() {
  return (
    <Box sx={{ p: 3 }}>
      <Typography color="text.secondary">The editor is being built.</Typography>
    </Box>
  );
}
