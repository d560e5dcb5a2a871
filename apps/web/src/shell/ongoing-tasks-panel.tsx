import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import { useStore } from '../state/create-store';
import { dismissTask, isActive, uploadStore, uploadTitle, UPLOAD_FAILED } from '../state/upload-store';

interface Props {
  open: boolean;
  onClose(): void;
}

/** The 'Ongoing tasks' side panel: one entry per upload with its progress. */
export function OngoingTasksPanel({ open, onClose }: Props) {
  const tasks = useStore(uploadStore);
  return (
    <Drawer anchor="right" open={open} onClose={onClose} aria-labelledby="ongoing-tasks-title">
      <Box
        sx={{ width: { xs: '100vw', sm: 360 }, maxWidth: '100vw' }}
        role="region"
        aria-label="Ongoing tasks"
      >
        <Stack
          direction="row"
          alignItems="center"
          sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
        >
          <Typography id="ongoing-tasks-title" variant="h6" sx={{ flexGrow: 1 }}>
            Ongoing tasks
          </Typography>
          <IconButton aria-label="Close ongoing tasks" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Stack>
        {tasks.length === 0 ? (
          <Stack alignItems="center" spacing={1} sx={{ p: 4, color: 'text.secondary', textAlign: 'center' }}>
            <CloudUploadIcon fontSize="large" />
            <Typography variant="body2">
              No uploads running. Add a video on the Videos page and its progress shows up here.
            </Typography>
          </Stack>
        ) : (
          <List aria-label="Uploads">
            {tasks.map((task) => {
              const failed = task.percentCompleted === UPLOAD_FAILED;
              const value = failed ? 100 : task.percentCompleted;
              return (
                <ListItem
                  key={task.uploadId}
                  divider
                  aria-label={`${uploadTitle(task)} ${task.name}`}
                  secondaryAction={
                    isActive(task) ? undefined : (
                      <IconButton
                        edge="end"
                        aria-label={`Dismiss ${task.name}`}
                        onClick={() => dismissTask(task.uploadId)}
                      >
                        <CloseIcon />
                      </IconButton>
                    )
                  }
                >
                  <Box sx={{ width: '100%', pr: 4 }}>
                    <Typography variant="subtitle2">{uploadTitle(task)}</Typography>
                    <Typography variant="body2" color="text.secondary" noWrap title={task.name}>
                      {task.name}
                    </Typography>
                    <Stack direction="row" alignItems="center" spacing={1} sx={{ mt: 1 }}>
                      <LinearProgress
                        variant="determinate"
                        value={value}
                        color={failed ? 'error' : task.percentCompleted >= 100 ? 'success' : 'primary'}
                        sx={{ flexGrow: 1, height: 6, borderRadius: 3 }}
                        aria-label={`Upload progress of ${task.name}`}
                      />
                      <Typography variant="caption" sx={{ minWidth: 36, textAlign: 'right' }}>
                        {failed ? 'failed' : `${task.percentCompleted}%`}
                      </Typography>
                    </Stack>
                  </Box>
                </ListItem>
              );
            })}
          </List>
        )}
      </Box>
    </Drawer>
  );
}
