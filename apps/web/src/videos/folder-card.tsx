import { memo, useState } from 'react';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FolderIcon from '@mui/icons-material/Folder';
import CreateNewFolderIcon from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import MoreIcon from '@mui/icons-material/MoreVert';
import type { Folder } from '@logo-review/contract';

function countLabel(folder: Folder): string {
  const parts = [];
  if (folder.folders.length)
    parts.push(`${folder.folders.length} folder${folder.folders.length === 1 ? '' : 's'}`);
  parts.push(`${folder.videos.length} video${folder.videos.length === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

export const FolderCard = memo(function FolderCard({
  folder,
  onOpen,
  onDelete,
  onExportCampaign,
}: {
  folder: Folder;
  onOpen(folder: Folder): void;
  onDelete(folder: Folder): void;
  /** Issue 20: the campaign report of the folder with its subfolders. */
  onExportCampaign?(folder: Folder): void;
}) {
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  return (
    <Card component="article" aria-label={`Folder ${folder.name}`} sx={{ bgcolor: '#f0f4ff' }}>
      <CardActionArea
        onClick={() => onOpen(folder)}
        aria-label={`Open folder ${folder.name}`}
        sx={{ flexGrow: 1 }}
      >
        <CardContent>
          <Stack direction="row" spacing={1.5} alignItems="center" sx={{ minWidth: 0 }}>
            <FolderIcon sx={{ color: '#f4b400', fontSize: 40 }} />
            <Stack sx={{ minWidth: 0 }}>
              <Typography variant="subtitle1" component="h3" noWrap title={folder.name}>
                {folder.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {countLabel(folder)}
              </Typography>
            </Stack>
          </Stack>
        </CardContent>
      </CardActionArea>
      <CardActions disableSpacing sx={{ pt: 0, justifyContent: 'flex-end' }}>
        {onExportCampaign && (
          <>
            <IconButton
              title="More actions"
              aria-label={`More actions for folder ${folder.name}`}
              aria-haspopup="menu"
              aria-expanded={menuAnchor ? 'true' : undefined}
              onClick={(e) => setMenuAnchor(e.currentTarget)}
            >
              <MoreIcon fontSize="small" />
            </IconButton>
            <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
              <MenuItem
                onClick={() => {
                  setMenuAnchor(null);
                  onExportCampaign(folder);
                }}
              >
                <ListItemIcon>
                  <DownloadIcon fontSize="small" />
                </ListItemIcon>
                Export campaign report
              </MenuItem>
            </Menu>
          </>
        )}
        <IconButton
          title="Delete folder"
          aria-label={`Delete folder ${folder.name}`}
          onClick={() => onDelete(folder)}
        >
          <DeleteIcon fontSize="small" />
        </IconButton>
      </CardActions>
    </Card>
  );
});

/** Spec: a 'Create New Folder' card sits first in the grid. */
export function CreateFolderCard({ onClick }: { onClick(): void }) {
  return (
    <Card sx={{ borderStyle: 'dashed', bgcolor: 'transparent' }}>
      <CardActionArea onClick={onClick} sx={{ height: '100%', minHeight: 96 }}>
        <CardContent>
          <Stack direction="row" spacing={1.5} alignItems="center" sx={{ color: 'primary.main' }}>
            <CreateNewFolderIcon sx={{ fontSize: 40 }} />
            <Typography variant="subtitle1">Create New Folder</Typography>
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
