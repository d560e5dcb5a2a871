import { useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/AddBoxOutlined';
import DoneIcon from '@mui/icons-material/DoneAll';
import type { Brand, Placement } from '@logo-review/contract';
import {
  NOT_SET_LABEL,
  draftToUpload,
  finishBlockedReason,
  sortBrandsForMenu,
} from '@logo-review/review-canvas';
import { formatError } from '../api/api-error';
import { notify } from '../state/status-store';
import { editorApi } from './editor-api';
import type { EditorSession } from './editor-session';
import { PlacementLabel } from './detections-panel';
import { usePanelVersion } from './use-session';

/** Spec section 9: the Set Brand menu is at most 400 px high. */
const BRAND_MENU_MAX_HEIGHT = 400;
/** Links the disabled Finish button to the text that says why it is disabled. */
const FINISH_HINT_ID = 'finish-blocked-reason';

interface MenuButtonProps<T extends { id: number }> {
  label: string;
  disabled: boolean;
  items: readonly T[];
  menuMaxHeight?: number;
  renderItem(item: T): ReactNode;
  onPick(item: T): void;
}

/** A half-width outlined button that opens a menu of records; picking one closes the menu. */
function MenuButton<T extends { id: number }>(props: MenuButtonProps<T>) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        sx={{ px: 0.5, whiteSpace: 'nowrap' }}
        disabled={props.disabled}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {props.label}
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ paper: { sx: { maxHeight: props.menuMaxHeight } } }}
      >
        {props.items.map((item) => (
          <MenuItem
            key={item.id}
            onClick={() => {
              props.onPick(item);
              setAnchor(null);
            }}
          >
            {props.renderItem(item)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

interface NewDetectionsPanelProps {
  session: EditorSession;
  brands: readonly Brand[];
  placements: readonly Placement[];
  brandName(id: number): string;
}

/**
 * Hand-drawn drafts (#, Brand, Placement or 'Not set'). They stay local until finished; Finish uploads the
 * selected ones (each complete and valid) and removes them from the list.
 */
export function NewDetectionsPanel({ session, brands, placements, brandName }: NewDetectionsPanelProps) {
  usePanelVersion(session);
  const { editor } = session;
  const model = editor.model;
  const drafts = model.drafts;
  const selected = model.selectedDraftIds;
  const hasSelection = model.selectedDraftList().length > 0;
  const canFinish = model.canFinishSelectedDrafts();
  const blockedReason = canFinish
    ? null
    : finishBlockedReason(model.selectedDraftList(), (d) => drafts.indexOf(d) + 1);
  const drawing = editor.videoMode === 'NEW_DETECTION';
  const [uploading, setUploading] = useState(false);
  const sortedBrands = useMemo(() => sortBrandsForMenu(brands), [brands]);
  const placementOf = (id: number | null) => (id === null ? undefined : placements.find((p) => p.id === id));

  // Known to undo while its request is on its way (Ctrl+Z right after it undoes the finish).
  const finish = () => session.review.whileEditing(finishNow);
  const finishNow = async () => {
    const list = model.selectedDraftList();
    if (list.length === 0 || !model.canFinishSelectedDrafts()) return;
    setUploading(true);
    try {
      const created = await editorApi.create(list.map(draftToUpload));
      model.removeDrafts(list.map((d) => d.id));
      model.upsertDetections(created);
      session.review.recordFinish(created);
      notify.success(`Uploaded ${created.length} new detection${created.length === 1 ? '' : 's'}.`);
    } catch (error) {
      notify.error(formatError(error, 'Error occurred while uploading new detections.'));
    } finally {
      setUploading(false);
    }
  };

  const ids = () => model.selectedDraftList().map((d) => d.id);
  return (
    <Paper variant="outlined" component="section" aria-label="New Detections" sx={{ overflow: 'hidden' }}>
      <Box sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
          New Detections
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 0.75 }}>
          <Button
            size="small"
            variant="contained"
            sx={{ gridColumn: '1 / -1' }}
            startIcon={<AddIcon />}
            disabled={drawing}
            onClick={() => editor.startDrawing()}
          >
            Add new detection
          </Button>
          <Button
            size="small"
            variant="contained"
            color="success"
            sx={{ gridColumn: '1 / -1' }}
            startIcon={<DoneIcon />}
            disabled={!canFinish || uploading}
            onClick={() => void finish()}
            aria-describedby={blockedReason ? FINISH_HINT_ID : undefined}
          >
            Finish selected new detections
          </Button>
          {blockedReason && (
            <Typography
              id={FINISH_HINT_ID}
              variant="caption"
              color="text.secondary"
              sx={{ gridColumn: '1 / -1', mt: -0.5 }}
              data-testid="finish-blocked-reason"
            >
              {blockedReason}
            </Typography>
          )}
          <MenuButton
            label="Set Brand"
            disabled={!hasSelection}
            items={sortedBrands}
            menuMaxHeight={BRAND_MENU_MAX_HEIGHT}
            renderItem={(b) => b.localized_name || b.name}
            onPick={(b) => model.setDraftsBrand(ids(), b.id)}
          />
          <MenuButton
            label="Set placement"
            disabled={!hasSelection}
            items={placements}
            renderItem={(p) => <PlacementLabel color={p.color} name={p.localized_name} />}
            onPick={(p) => model.setDraftsPlacement(ids(), p.id)}
          />
          <Button
            size="small"
            variant="outlined"
            color="error"
            sx={{ gridColumn: '1 / -1' }}
            disabled={!hasSelection}
            onClick={() => model.removeDrafts(ids())}
          >
            Delete
          </Button>
        </Box>
      </Box>
      <TableContainer sx={{ maxHeight: 220 }}>
        <Table
          size="small"
          stickyHeader
          aria-label="New detections"
          sx={{ tableLayout: 'fixed', '& td, & th': { px: 1 } }}
        >
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 36 }}>#</TableCell>
              <TableCell>Brand</TableCell>
              <TableCell>Placement</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {drafts.map((d, i) => {
              const placement = placementOf(d.placementId);
              const isSelected = selected.has(d.id);
              return (
                <TableRow
                  key={d.id}
                  hover
                  selected={isSelected}
                  aria-selected={isSelected}
                  onClick={() => model.toggleDraft(d.id)}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell>{i + 1}</TableCell>
                  <TableCell>{d.brandId === null ? NOT_SET_LABEL : brandName(d.brandId)}</TableCell>
                  <TableCell>
                    {placement ? (
                      <PlacementLabel color={placement.color} name={placement.localized_name} />
                    ) : (
                      NOT_SET_LABEL
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
            {drafts.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} sx={{ color: 'text.secondary', borderBottom: 0 }}>
                  Draw one with Add new detection
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
