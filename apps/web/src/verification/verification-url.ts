/** Spec: the URL is built from the current protocol and host plus the file path. */
export function verificationUrl(
  filePath: string,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
): string {
  const path = filePath.startsWith('/') ? filePath : `/${filePath}`;
  return `${location.protocol}//${location.host}${path}`;
}
