import {
  memo,
  useLayoutEffect,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
  type UIEvent,
} from 'react';
import { alpha, type SxProps, type Theme } from '@mui/material/styles';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import TruePositiveIcon from '@mui/icons-material/ThumbUpAltOutlined';
import FalsePositiveIcon from '@mui/icons-material/ThumbDownAltOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import PlacementIcon from '@mui/icons-material/PlaceOutlined';
import type { Detection, Placement } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { notify } from '../state/status-store';
import { editorApi, type ReportType } from './editor-api';
import type { EditorSession } from './editor-session';
import { confirmedState, REPORT_MESSAGES } from './review-controller';
import { usePanelVersion } from './use-session';

/** A placement's colour dot and name. */
export function PlacementLabel({ color, name }: { color: string; name: string }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color, flexShrink: 0 }}
      />
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {name}
      </Box>
    </Box>
  );
}

function ToolbarButton(props: {
  label: string;
  disabled: boolean;
  onClick(e: MouseEvent<HTMLElement>): void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={props.label}>
      <span>
        <IconButton size="small" aria-label={props.label} disabled={props.disabled} onClick={props.onClick}>
          {props.children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** Height of a Detections row (px): fixed, so that a long table can lay out only the rows near the view. */
export const ROW_HEIGHT = 33;
/**
 * Above this many rows, rows far from the visible part stay in the table (the DOM lists every active
 * detection) but are not displayed: a busy frame's ~500 rows cost tens of ms of style, layout and paint on
 * every step of the review loop, while the panel shows about fifteen.
 */
export const WINDOWED_ABOVE = 120;
/** Rows displayed before and after the visible part of a windowed table. */
const OVERSCAN = 15;
/** Scrolling re-windows the table every this many rows. */
const SCROLL_STEP = 10;

const ROWS_SX: SxProps<Theme> = {
  tableLayout: 'fixed',
  '& th': { px: 1 },
  '& tbody td': {
    px: 1,
    py: 0.75,
    fontSize: '0.875rem',
    borderBottom: 1,
    borderColor: 'divider',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& tbody tr': { cursor: 'pointer', height: ROW_HEIGHT },
  '& tbody tr.far': { display: 'none' },
  '& tbody tr.spacer': { cursor: 'default' },
  '& tbody tr.spacer td': { p: 0, border: 0 },
  '& tbody tr:hover': { bgcolor: 'action.hover' },
  '& tbody tr.selected': { bgcolor: (t) => alpha(t.palette.primary.main, 0.12) },
  '& tbody tr.filtered': { opacity: 0.45, cursor: 'default', bgcolor: 'transparent' },
  '& tbody tr.empty td': { color: 'text.secondary', borderBottom: 0, cursor: 'default' },
  '& td.state': { fontSize: '0.75rem', color: 'text.secondary' },
  '& td.state.TRUE_POSITIVE': { color: 'success.main', fontWeight: 600 },
  '& td.state.EDITED, & td.state.MANUAL': { color: 'info.main', fontWeight: 600 },
  '& .dot': {
    display: 'inline-block',
    width: 10,
    height: 10,
    borderRadius: '50%',
    mr: 0.75,
    verticalAlign: 'middle',
  },
};

/** How the State column names a review state. */
const STATE_LABELS: Record<string, [short: string, full: string]> = {
  UNREVIEWED: ['New', 'Unreviewed'],
  TRUE_POSITIVE: ['TP', 'True positive'],
  EDITED: ['Edit', 'Edited'],
  MANUAL: ['Hand', 'Drawn by hand'],
};

/**
 * The State cell: a short word (the panel is 3/12 of the page and must keep its spec columns readable) with
 * the full name as its title.
 */
export function stateLabel(review: string | undefined): [short: string, full: string] {
  const r = review || 'UNREVIEWED';
  return STATE_LABELS[r] ?? [r, r];
}

export function confidenceLabel(confidence: number | null | undefined): string {
  return confidence == null ? '–' : `${Math.round(confidence * 100)}%`;
}

/**
 * One row. Memoized: a verdict or a step moves the frame a little, and most of a busy frame's hundreds of
 * rows show the same detection objects as before, so they are not rendered again (detections are replaced,
 * never mutated, when they change).
 */
const DetectionRow = memo(function DetectionRow({
  detection: d,
  filtered,
  selected,
  brand,
  far,
}: {
  detection: Detection;
  filtered: boolean;
  selected: boolean;
  brand: string;
  /** Far from the visible part of a long table: listed but not displayed. */
  far: boolean;
}) {
  const [short, full] = stateLabel(d.review);
  const cls = filtered ? 'filtered' : selected ? 'selected' : '';
  return (
    <tr
      data-id={d.id}
      aria-selected={selected}
      aria-disabled={filtered || undefined}
      className={far ? `far ${cls}` : cls || undefined}
    >
      <td>{d.id}</td>
      <td>{brand}</td>
      <td>
        <span className="dot" style={{ background: d.placement.color }} />
        {d.placement.localized_name}
      </td>
      <td className={`state ${d.review || 'UNREVIEWED'}`} title={full}>
        {short}
      </td>
      <td>{confidenceLabel(d.confidence)}</td>
    </tr>
  );
});

/** Keeps the scroll height of the rows that are listed but not displayed. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="spacer" aria-hidden style={{ height }}>
      <td colSpan={5} />
    </tr>
  );
}

/** The index of the only selected row, or -1 (none or several). */
function singleSelected(rows: ReadonlyArray<{ selected: boolean }>): number {
  let found = -1;
  for (let i = 0; i < rows.length; i++) {
    if (!rows[i].selected) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}

interface DetectionsPanelProps {
  session: EditorSession;
  brandName(id: number): string;
  placements: readonly Placement[];
  tableHeight: number;
}

/**
 * Detections active at the current frame (Id, Brand, Placement); rows hit by the filter are greyed and
 * disabled (listed only while filtered ones are shown). A row click toggles the selection; the toolbar acts on
 * the selected detections active now.
 */
export function DetectionsPanel({ session, brandName, placements, tableHeight }: DetectionsPanelProps) {
  usePanelVersion(session);
  const model = session.editor.model;
  const rows = model.detectionRows();
  const enabled = model.hasActiveSelection();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  // The first row of the visible part, in steps of SCROLL_STEP rows (a long table re-windows on scroll).
  const [firstRow, setFirstRow] = useState(0);
  const visibleRows = Math.ceil(Math.max(tableHeight, 120) / ROW_HEIGHT);
  const windowed = rows.length > WINDOWED_ABOVE;
  const start = windowed ? Math.max(0, firstRow - OVERSCAN) : 0;
  const end = windowed ? Math.min(rows.length, firstRow + visibleRows + SCROLL_STEP + OVERSCAN) : rows.length;
  // The container's scroll position as last seen (read in onScroll, so the effect below reads no layout).
  const scrollTop = useRef(0);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    scrollTop.current = e.currentTarget.scrollTop;
    const first = Math.floor(scrollTop.current / ROW_HEIGHT / SCROLL_STEP) * SCROLL_STEP;
    if (first !== firstRow) setFirstRow(first);
  };
  // The review queue selects one detection: its row is scrolled into the visible part when it is outside.
  const selectedIndex = rows.length > 0 ? singleSelected(rows) : -1;
  const viewHeight = Math.max(tableHeight, 120) - ROW_HEIGHT; // the sticky header covers one row
  useLayoutEffect(() => {
    const el = container.current;
    if (!el || selectedIndex < 0) return;
    const top = selectedIndex * ROW_HEIGHT;
    if (top >= scrollTop.current && top + ROW_HEIGHT <= scrollTop.current + viewHeight) return;
    scrollTop.current = Math.max(0, top - 2 * ROW_HEIGHT);
    el.scrollTop = scrollTop.current;
  }, [selectedIndex, viewHeight]);

  // Each edit is known to undo while its request is on its way (Ctrl+Z right after it undoes it).
  const report = (type: ReportType) => session.review.whileEditing(() => reportNow(type));
  const reportNow = async (type: ReportType) => {
    const ids = model.activeSelectedIds();
    if (ids.length === 0) return;
    const before = ids.map((id) => model.getDetection(id)).filter((d) => d !== undefined);
    setBusy(true);
    try {
      await editorApi.report(ids, type);
      if (type !== 'truePositive') model.removeDetections(ids);
      else model.upsertDetections(before.map((d) => ({ ...d, review: confirmedState(d.review) })));
      session.review.recordVerdict(before, type);
      notify.success(REPORT_MESSAGES[type]);
    } catch (error) {
      notify.error(formatError(error, 'Error reporting detection'));
    } finally {
      setBusy(false);
    }
  };

  const changePlacement = (placement: Placement) =>
    session.review.whileEditing(() => changePlacementNow(placement));
  const changePlacementNow = async (placement: Placement) => {
    setMenuAnchor(null);
    const ids = model.activeSelectedIds();
    if (ids.length === 0) return;
    const before = ids.map((id) => model.getDetection(id)).filter((d) => d !== undefined);
    setBusy(true);
    try {
      const updated = await editorApi.setPlacement(placement.id, ids);
      model.upsertDetections(updated);
      session.review.recordPlacement(before, placement.id);
      notify.success('Successfully updated selected detection');
    } catch (error) {
      notify.error(formatError(error, 'Error changing placement'));
    } finally {
      setBusy(false);
    }
  };

  const off = !enabled || busy;
  const onRowClick = (e: MouseEvent<HTMLTableSectionElement>) => {
    const tr = (e.target as HTMLElement).closest('tr');
    const id = Number(tr?.dataset.id);
    if (!tr || !id || tr.classList.contains('filtered')) return;
    model.toggleDetection(id);
  };
  return (
    <Paper variant="outlined" component="section" aria-label="Detections" sx={{ overflow: 'hidden' }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          px: 1.5,
          minHeight: 52,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography variant="subtitle2" component="h2" sx={{ flexGrow: 1 }}>
          Detections
        </Typography>
        <ToolbarButton label="True Positive" disabled={off} onClick={() => void report('truePositive')}>
          <TruePositiveIcon fontSize="small" />
        </ToolbarButton>
        <ToolbarButton label="False Positive" disabled={off} onClick={() => void report('falsePositive')}>
          <FalsePositiveIcon fontSize="small" />
        </ToolbarButton>
        <ToolbarButton label="Delete" disabled={off} onClick={() => void report('delete')}>
          <DeleteIcon fontSize="small" />
        </ToolbarButton>
        <ToolbarButton
          label="Change placement"
          disabled={off}
          onClick={(e) => setMenuAnchor(e.currentTarget)}
        >
          <PlacementIcon fontSize="small" />
        </ToolbarButton>
        {/*
          No focus restore: the button is disabled while the change is saved, and a focused disabled button
          swallows the next key (Ctrl+Z would be lost).
        */}
        <Menu
          anchorEl={menuAnchor}
          open={menuAnchor !== null}
          onClose={() => setMenuAnchor(null)}
          disableRestoreFocus
        >
          {placements.map((p) => (
            <MenuItem key={p.id} onClick={() => void changePlacement(p)}>
              <PlacementLabel color={p.color} name={p.localized_name} />
            </MenuItem>
          ))}
        </Menu>
      </Box>
      {/* Contained: a change of rows lays out and paints the table alone, not the page around it. */}
      <TableContainer
        ref={container}
        onScroll={onScroll}
        sx={{ height: tableHeight, minHeight: 120, contain: 'strict' }}
      >
        <Table size="small" stickyHeader aria-label="Active detections" sx={ROWS_SX}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 40 }}>Id</TableCell>
              <TableCell>Brand</TableCell>
              <TableCell>Placement</TableCell>
              <TableCell sx={{ width: 46 }}>State</TableCell>
              <TableCell sx={{ width: 50 }} title="Confidence">
                Conf
              </TableCell>
            </TableRow>
          </TableHead>
          {/*
            Plain rows: a busy frame lists hundreds of detections, and MUI's TableRow/TableCell (a styled
            component each) cost several times more to render than these; styles come from the table's sx.
          */}
          <tbody onClick={onRowClick}>
            {start > 0 && <Spacer height={start * ROW_HEIGHT} />}
            {rows.map(({ detection: d, filtered, selected }, i) => (
              <DetectionRow
                key={d.id}
                detection={d}
                filtered={filtered}
                selected={selected}
                brand={brandName(d.brand)}
                far={i < start || i >= end}
              />
            ))}
            {end < rows.length && <Spacer height={(rows.length - end) * ROW_HEIGHT} />}
            {rows.length === 0 && (
              <tr className="empty">
                <td colSpan={5}>No detection at this frame</td>
              </tr>
            )}
          </tbody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
