import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenIcon from '@mui/icons-material/OpenInNew';
import VerifiedIcon from '@mui/icons-material/VerifiedOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VERIFICATION_STATUS, type VerificationVideo } from '@logo-review/contract';
import { formatError } from '../api/api-error';
import { useVerificationVideos, useVideoTree } from '../api/queries';
import { QK } from '../api/query-keys';
import { verificationApi } from '../api/verification-api';
import { AddFab } from '../components/add-fab';
import { DeleteButton, EditButton } from '../components/card-buttons';
import { CardField } from '../components/card-field';
import { CardCell, CardGrid } from '../components/card-grid';
import { DeleteDialog } from '../components/delete-dialog';
import { matchesSearch } from '../components/filter-by-name';
import { ListStates } from '../components/list-states';
import { PageLayout } from '../components/page-layout';
import { SearchBox } from '../components/search-box';
import { useLoadedMessage } from '../components/use-loaded-message';
import { notify } from '../state/status-store';
import { flattenVideos } from '../videos/video-tree';
import { VerificationDialog, type VerificationTarget } from './verification-dialog';
import { verificationUrl } from './verification-url';

function nameColor(status: string): string {
  if (status === VERIFICATION_STATUS.FINISHED) return 'success.main';
  if (status === VERIFICATION_STATUS.ERROR) return 'error.main';
  return 'text.primary';
}

export default function VerificationPage() {
  const queryClient = useQueryClient();
  const list = useVerificationVideos();
  const tree = useVideoTree();
  const videoNames = useMemo(() => new Map(flattenVideos(tree.data).map((v) => [v.id, v.name])), [tree.data]);
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const [target, setTarget] = useState<VerificationTarget | null>(null);
  const [deleting, setDeleting] = useState<VerificationVideo | null>(null);
  useLoadedMessage(
    list.isSuccess,
    list.dataUpdatedAt,
    useCallback(() => notify.success('Retrieved verification videos.'), []),
  );

  const visible = useMemo(
    () =>
      (list.data ?? [])
        .filter((v) => matchesSearch(deferred, v.name, videoNames.get(v.video)))
        .sort((a, b) => b.id - a.id),
    [list.data, deferred, videoNames],
  );
  const remove = useMutation({
    mutationFn: (v: VerificationVideo) => verificationApi.remove(v.id),
    onSuccess: () => {
      setDeleting(null);
      return queryClient.invalidateQueries({ queryKey: QK.verification });
    },
    onError: (error) => notify.error(formatError(error, 'Failed to update verification video.')),
  });
  const total = list.data?.length ?? 0;

  return (
    <PageLayout
      toolbar={<SearchBox value={search} onChange={setSearch} label="Search verification videos" />}
    >
      <ListStates
        loading={list.isLoading}
        loadingLabel="Loading verification videos"
        empty={list.isSuccess && total === 0}
        icon={<VerifiedIcon />}
        emptyTitle="No verification videos yet"
        emptyHint="A verification video renders the reviewed detections over a video so others can check them. Create one from a processed video."
        addLabel="Create verification video"
        onAdd={() => setTarget({ verification: null })}
        noMatch={total > 0 && visible.length === 0}
        noMatchTitle="Nothing matches your search"
      />
      <CardGrid label="Verification videos">
        {visible.map((v) => {
          const url = v.file_path ? verificationUrl(v.file_path) : null;
          const busy =
            v.status === VERIFICATION_STATUS.SUBMITTED || v.status === VERIFICATION_STATUS.PROCESSING;
          return (
            <CardCell key={v.id}>
              <Card component="article" aria-label={v.name}>
                <CardContent>
                  <Typography
                    variant="subtitle1"
                    component="h3"
                    noWrap
                    title={v.name}
                    sx={{ color: nameColor(v.status), mb: 1 }}
                  >
                    {v.name}
                  </Typography>
                  <Stack spacing={0.25}>
                    <CardField label="ID">{v.id}</CardField>
                    <CardField label="Video name">{videoNames.get(v.video) ?? 'Unknown'}</CardField>
                    <CardField label="Status">{v.status}</CardField>
                    {url && (
                      <CardField label="URL">
                        <Link href={url} target="_blank" rel="noopener" sx={{ wordBreak: 'break-all' }}>
                          {url}
                        </Link>
                      </CardField>
                    )}
                  </Stack>
                  {busy && (
                    <LinearProgress
                      variant={v.progress > 0 ? 'determinate' : 'indeterminate'}
                      value={v.progress}
                      sx={{ mt: 1.5, height: 4, borderRadius: 2 }}
                      aria-label={`Rendering ${v.name}`}
                    />
                  )}
                </CardContent>
                <CardActions disableSpacing sx={{ pt: 0 }}>
                  <IconButton
                    title="Open in a new tab"
                    aria-label={`Open ${v.name} in a new tab`}
                    disabled={!url}
                    href={url ?? ''}
                    target="_blank"
                    rel="noopener"
                  >
                    <OpenIcon fontSize="small" />
                  </IconButton>
                  <EditButton name={v.name} onClick={() => setTarget({ verification: v })} />
                  <DeleteButton name={v.name} onClick={() => setDeleting(v)} />
                </CardActions>
              </Card>
            </CardCell>
          );
        })}
      </CardGrid>
      <AddFab label="Add verification video" onClick={() => setTarget({ verification: null })} />
      <VerificationDialog target={target} onClose={() => setTarget(null)} />
      <DeleteDialog
        name={deleting?.name ?? null}
        message="The verification video and its rendered file are removed. This cannot be undone."
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </PageLayout>
  );
}
