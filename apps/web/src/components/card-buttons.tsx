import IconButton from '@mui/material/IconButton';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';

// Native titles instead of MUI tooltips: thousands of cards stay cheap to render.

/** A card's edit button: titled 'Edit', labelled 'Edit {name}'. */
export function EditButton({ name, onClick }: { name: string; onClick(): void }) {
  return (
    <IconButton title="Edit" aria-label={`Edit ${name}`} onClick={onClick}>
      <EditIcon fontSize="small" />
    </IconButton>
  );
}

/** A card's delete button: titled 'Delete', labelled 'Delete {name}'. */
export function DeleteButton({ name, onClick }: { name: string; onClick(): void }) {
  return (
    <IconButton title="Delete" aria-label={`Delete ${name}`} onClick={onClick}>
      <DeleteIcon fontSize="small" />
    </IconButton>
  );
}

interface ExpandProps {
  /** What the button shows and hides, e.g. 'logos': titled 'Show logos', labelled 'Show logos of {name}'. */
  what: string;
  name: string;
  expanded: boolean;
  onToggle(): void;
}

/** The chevron at the right end of a card's actions that opens and closes its extra section. */
export function ExpandButton({ what, name, expanded, onToggle }: ExpandProps) {
  const title = `${expanded ? 'Hide' : 'Show'} ${what}`;
  return (
    <IconButton
      title={title}
      aria-label={`${title} of ${name}`}
      aria-expanded={expanded}
      onClick={onToggle}
      sx={{ ml: 'auto', transform: expanded ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }}
    >
      <ExpandMoreIcon />
    </IconButton>
  );
}
