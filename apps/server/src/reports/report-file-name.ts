/**
 * Download names for the Excel report: the browser saves the file under the video's name
 * (spec: "saved by the browser as a file named after the video").
 */

/** The video's name made safe as a file name, with '.xlsx'. */
export function excelReportFileName(videoName: string): string {
  const base = videoName
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/\.(mp4|mov|avi|mkv|webm|m4v|mpe?g|ts)$/i, '')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 150);
  return `${base || 'report'}.xlsx`;
}

/**
 * A Content-Disposition value that old and new browsers read: an ASCII fallback in `filename`
 * and the exact UTF-8 name in `filename*` (RFC 6266 / RFC 5987).
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
