import { memo, useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import { styled } from '@mui/material/styles';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import { BRAND_STATUS, type Brand } from '@logo-review/contract';
import { DeleteButton, EditButton, ExpandButton } from '../components/card-buttons';
import { brandStatusColor, formatPrecision } from './brand-status';

export interface BrandCardActions {
  onEdit(brand: Brand): void;
  onDeactivate(brand: Brand): void;
  onDelete(brand: Brand): void;
}

/** Spec: '{localized name} ({name})'; just the name when there is no localized one. */
export function brandTitle(brand: Pick<Brand, 'name' | 'localized_name'>): string {
  const localized = brand.localized_name?.trim();
  return localized ? `${localized} (${brand.name})` : brand.name;
}

/**
 * The card's figures as one styled definition list: plain elements under a single styled parent
 * render far faster than a Stack, Typography and Chip per line, which matters with 1,000 cards.
 */
const Stats = styled('dl')(({ theme }) => ({
  margin: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: theme.spacing(0.5),
  ...theme.typography.body2,
  '& > div': {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: theme.spacing(1),
  },
  '& dt': { color: theme.palette.text.secondary },
  '& dd': { margin: 0, fontWeight: 500, textAlign: 'right' },
  '& .status': {
    display: 'inline-block',
    padding: '1px 8px',
    borderRadius: 12,
    border: '1px solid',
    fontSize: 13,
    lineHeight: '20px',
  },
  '& .status-success': { color: theme.palette.success.main },
  '& .status-error': { color: theme.palette.error.main },
  '& .status-warning': { color: theme.palette.warning.dark },
  '& .status-info': { color: theme.palette.info.main },
  '& .status-default': { color: theme.palette.text.secondary },
}));

/** Memoised: with 1,000 brands, typing in the search box must not re-render unchanged cards. */
export const BrandCard = memo(function BrandCard({
  brand,
  actions,
}: {
  brand: Brand;
  actions: BrandCardActions;
}) {
  const [expanded, setExpanded] = useState(false);
  const title = brandTitle(brand);
  const deactivated = brand.status === BRAND_STATUS.DEACTIVATED;
  return (
    <Card component="article" aria-label={title}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mb: 1.5, minWidth: 0 }}>
          <Avatar
            src={brand.icon_url ?? undefined}
            alt=""
            variant="rounded"
            sx={{
              width: 40,
              height: 40,
              bgcolor: 'grey.100',
              color: 'text.secondary',
              '& img': { objectFit: 'contain' },
            }}
            slotProps={{ img: { loading: 'lazy' } }}
          >
            {brand.name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Typography variant="subtitle1" component="h3" sx={{ minWidth: 0, lineHeight: 1.3 }} title={title}>
            {title}
          </Typography>
        </Stack>
        <Stats>
          <div>
            <dt>Status</dt>
            <dd>
              <span className={`status status-${brandStatusColor(brand.status)}`}>{brand.status}</span>
            </dd>
          </div>
          <div>
            <dt>Activation progress</dt>
            <dd>{Math.round(brand.activation_progress)}%</dd>
          </div>
          <div>
            <dt>Logo Count</dt>
            <dd>{brand.logos.length}</dd>
          </div>
        </Stats>
      </CardContent>
      <CardActions disableSpacing sx={{ pt: 0 }}>
        {/* Native titles instead of MUI tooltips: thousands of cards stay cheap to render. */}
        <EditButton name={brand.name} onClick={() => actions.onEdit(brand)} />
        <IconButton
          title={deactivated ? 'Already deactivated' : 'Deactivate'}
          aria-label={`Deactivate ${brand.name}`}
          disabled={deactivated}
          onClick={() => actions.onDeactivate(brand)}
        >
          <BlockIcon fontSize="small" />
        </IconButton>
        <DeleteButton name={brand.name} onClick={() => actions.onDelete(brand)} />
        <ExpandButton
          what="logos"
          name={brand.name}
          expanded={expanded}
          onToggle={() => setExpanded((e) => !e)}
        />
      </CardActions>
      {/* Mounted only once opened: closed cards skip the transition machinery entirely. */}
      {expanded && (
        <Collapse in appear timeout="auto">
          <CardContent sx={{ pt: 0, borderTop: 1, borderColor: 'divider' }}>
            <Typography variant="overline" color="text.secondary">
              Logos
            </Typography>
            {brand.logos.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No data
              </Typography>
            ) : (
              <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {brand.logos.map((logo) => (
                  <Stack component="li" key={logo.id} direction="row" spacing={1.5} alignItems="center">
                    <Box
                      component="img"
                      src={logo.icon_url}
                      alt={logo.file_name}
                      loading="lazy"
                      sx={{
                        width: 48,
                        height: 32,
                        objectFit: 'contain',
                        bgcolor: 'grey.100',
                        borderRadius: 1,
                      }}
                    />
                    <Typography
                      variant="body2"
                      sx={{ flexGrow: 1, minWidth: 0 }}
                      noWrap
                      title={logo.file_name}
                    >
                      {logo.file_name}
                    </Typography>
                    <Typography variant="body2" fontWeight={500}>
                      {logo.precision === null ? 'No data' : `Precision: ${formatPrecision(logo.precision)}`}
                    </Typography>
                  </Stack>
                ))}
              </Stack>
            )}
          </CardContent>
        </Collapse>
      )}
    </Card>
  );
});
