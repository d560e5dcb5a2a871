/**
 * Spec: the header title is the last URL segment, 'Dashboard' on root,
 * or 'Editor: {video name}' on the editor with a selected video.
 */
export function headerTitle(pathname: string, editorVideoName?: string | null): string {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) return 'Dashboard';
  const last = decodeURIComponent(segments[segments.length - 1]);
  if (last === 'editor' && editorVideoName) return `Editor: ${editorVideoName}`;
  return last;
}
