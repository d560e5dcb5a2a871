import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from './free-port.ts';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

/**
 * Serves the built web app without any API, to see the login screen with a broken backend:
 * 'drop' closes every API connection without an answer (server unreachable), 'fail' answers 502.
 */
export async function startStaticApp(
  apiMode: 'drop' | 'fail',
  dist: string,
): Promise<{ baseURL: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/')) {
      if (apiMode === 'drop') req.socket.destroy();
      else res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>');
      return;
    }
    const file = url.pathname.startsWith('/assets/')
      ? path.join(dist, url.pathname)
      : path.join(dist, 'index.html');
    try {
      const body = await readFile(file);
      res
        .writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
