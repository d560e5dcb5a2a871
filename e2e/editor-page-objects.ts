import type { Locator, Page } from 'playwright-core';
import { API, type Detection } from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';

/** Locators and small actions of the editor page, by role and label. */
export class EditorPageObject {
  constructor(readonly page: Page) {}

  /** Opens /editor on a video (the VIDEO key, as the videos page sets it), at a stored position. */
  async open(videoId: number, timeMs = 0): Promise<void> {
    await this.leave();
    await this.page.evaluate(
      ([id, t]) => {
        localStorage.setItem('VIDEO', String(id));
        localStorage.setItem('TIME', String(t));
      },
      [videoId, timeMs] as const,
    );
    await this.page.goto('/editor');
    await this.overlay.waitFor();
    await this.page.getByText('Loading video..').waitFor({ state: 'detached' });
    await this.page.getByRole('progressbar', { name: 'Loading detections' }).waitFor({ state: 'detached' });
  }

  /**
   * Leaves an open editor for the dashboard. The editor saves its position to TIME every few seconds;
   * one save between a test's setItem('TIME') and the page's unload would open it at the old position.
   */
  async leave(): Promise<void> {
    if (new URL(this.page.url()).pathname === '/editor') await this.page.goto('/');
  }

  get overlay(): Locator {
    return this.page.getByRole('img', { name: /^(Detection overlay|Drawing a new detection)$/ });
  }

  get detections(): Locator {
    return this.page.getByRole('region', { name: 'Detections', exact: true });
  }

  get newDetections(): Locator {
    return this.page.getByRole('region', { name: 'New Detections' });
  }

  get time(): Locator {
    return this.page.getByRole('timer', { name: 'Time' });
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** The Detections table row of a detection id. */
  row(id: number): Locator {
    return this.page
      .getByRole('table', { name: 'Active detections' })
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell', { name: String(id), exact: true }) });
  }

  /** Ids listed in the Detections table, in order. */
  async listedIds(): Promise<number[]> {
    const cells = this.page
      .getByRole('table', { name: 'Active detections' })
      .locator('tbody tr td:first-child');
    const texts = await cells.allTextContents();
    return texts.map(Number).filter((n) => Number.isInteger(n) && n > 0);
  }

  /** Waits until the table lists exactly these ids (in any order). */
  async expectListed(ids: number[], timeout = 5000): Promise<void> {
    const want = [...ids].sort((a, b) => a - b).join(',');
    const deadline = Date.now() + timeout;
    let got = '';
    while (Date.now() < deadline) {
      got = (await this.listedIds()).sort((a, b) => a - b).join(',');
      if (got === want) return;
      await this.page.waitForTimeout(50);
    }
    throw new Error(`Detections table lists [${got}], expected [${want}]`);
  }

  async expectTime(text: string | RegExp, timeout = 5000): Promise<void> {
    const deadline = Date.now() + timeout;
    let got = '';
    while (Date.now() < deadline) {
      got = (await this.time.textContent()) ?? '';
      if (typeof text === 'string' ? got === text : text.test(got)) return;
      await this.page.waitForTimeout(50);
    }
    throw new Error(`time display shows '${got}', expected ${String(text)}`);
  }

  /** Page coordinates of a point of the overlay given in display pixels. */
  async at(x: number, y: number): Promise<{ x: number; y: number }> {
    const b = (await this.overlay.boundingBox())!;
    return { x: b.x + x, y: b.y + y };
  }

  /** Presses at one overlay point, drags to another in steps, releases. */
  async drag(from: [number, number], to: [number, number]): Promise<void> {
    const a = await this.at(...from);
    const b = await this.at(...to);
    await this.page.mouse.move(a.x, a.y);
    await this.page.mouse.down();
    await this.page.mouse.move(b.x, b.y, { steps: 8 });
    await this.page.mouse.up();
  }

  /**
   * Clicks an overlay point, once the overlay itself is what is under it: a status message (the snackbar at
   * the top, 6 s) or a menu closing can cover the canvas for a moment, and a mouse click there would land on
   * that instead.
   */
  async click(x: number, y: number): Promise<void> {
    const p = await this.at(x, y);
    const deadline = Date.now() + 8000;
    let over = '';
    for (;;) {
      over = await this.page.evaluate(
        ([px, py]) => {
          const el = document.elementFromPoint(px, py);
          return el instanceof HTMLCanvasElement && el.getAttribute('role') === 'img'
            ? ''
            : (el?.outerHTML.slice(0, 120) ?? 'nothing');
        },
        [p.x, p.y] as const,
      );
      if (over === '' || Date.now() > deadline) break;
      await this.page.waitForTimeout(50);
    }
    if (over !== '') throw new Error(`the overlay is covered at (${x}, ${y}) by ${over}`);
    await this.page.mouse.click(p.x, p.y);
  }

  /** Starts drawing with 'Add new detection' and clicks a draft's corners one after the other. */
  async drawDraft(corners: Array<[number, number]>): Promise<void> {
    await this.button('Add new detection').click();
    for (const [x, y] of corners) await this.click(x, y);
  }

  /** The overlay's CSS cursor at a point (hover feedback: 'move' over an edge, 'pointer' over a corner). */
  async cursorAt(x: number, y: number): Promise<string> {
    const p = await this.at(x, y);
    // The overlay sets its cursor on pointermove once it has laid out: move again until it has.
    for (let i = 0; i < 20; i++) {
      await this.page.mouse.move(p.x + (i % 2) * 0.5, p.y);
      const cursor = await this.overlay.evaluate((el) => (el as HTMLElement).style.cursor);
      if (cursor) return cursor;
      await this.page.waitForTimeout(100);
    }
    return '';
  }
}

/** Detections of a video overlapping [start, end] ms, straight from the API. */
export function detectionsInWindow(
  api: ApiClient,
  videoId: number,
  start = 0,
  end = 3_600_000,
): Promise<Detection[]> {
  return api.call<Detection[]>(
    'GET',
    `${API.detections}?videoId=${videoId}&startTime=${start}&endTime=${end}`,
  );
}

/**
 * Gives detections an engine confidence in the browser: the API cannot create engine detections (only the
 * analysis does, from real logos), so the window answers get the confidence the test chose. The review
 * queue's question to the server (next by confidence) still goes to the real server, which must answer it;
 * its answer is then replaced by the one the server gives for these confidences: the most confident
 * unreviewed detection of the whole video, not excluded (ties by start, then id). The server's ranking
 * itself is tested on both databases in apps/server/test/review-loop.test.ts. Everything else, including
 * every other call the page makes, goes to the real server.
 */
export async function injectConfidence(page: Page, confidence: ReadonlyMap<number, number>): Promise<void> {
  const withConfidence = (list: Detection[]) => {
    for (const d of list) {
      const c = confidence.get(d.id);
      if (c !== undefined) Object.assign(d, { confidence: c, source: 'engine' });
    }
    return list;
  };
  await page.route(
    (url) => url.pathname === API.detections && url.searchParams.has('videoId'),
    async (route) => {
      const response = await route.fetch();
      const list = withConfidence((await response.json()) as Detection[]);
      await route.fulfill({ response, json: list });
    },
  );
  await page.route(
    (url) => url.pathname === API.detectionsNext,
    async (route) => {
      const response = await route.fetch();
      if (!response.ok()) return route.fulfill({ response });
      const url = new URL(route.request().url());
      const exclude = new Set(url.searchParams.getAll('exclude').map(Number));
      const all = await route.fetch({
        url: `${url.origin}${API.detections}?videoId=${url.searchParams.get('videoId')}&startTime=0&endTime=3600000`,
        method: 'GET',
      });
      const queue = withConfidence((await all.json()) as Detection[])
        .filter((d) => d.review === 'UNREVIEWED' && !exclude.has(d.id))
        .sort(
          (a, b) => (b.confidence ?? -1) - (a.confidence ?? -1) || a.time_begin - b.time_begin || a.id - b.id,
        );
      const limit = Number(url.searchParams.get('limit') ?? 1);
      await route.fulfill({ response, json: { detection: queue[0] ?? null, queue: queue.slice(0, limit) } });
    },
  );
}

/** RGBA of one pixel of the overlay canvas (display px; the canvas alone, without the video). */
export async function overlayPixel(
  page: Page,
  x: number,
  y: number,
): Promise<[number, number, number, number]> {
  return page.evaluate(
    ([px, py]) => {
      const c = document.querySelector('canvas[aria-label]') as HTMLCanvasElement;
      const dpr = c.width / c.clientWidth;
      const d = c.getContext('2d')!.getImageData(Math.round(px * dpr), Math.round(py * dpr), 1, 1).data;
      return [d[0], d[1], d[2], d[3]] as [number, number, number, number];
    },
    [x, y] as const,
  );
}

/** How many of the overlay pixels along a horizontal line (display px) are drawn (alpha > 0). */
export async function drawnAlong(page: Page, x0: number, x1: number, y: number): Promise<number> {
  return page.evaluate(
    ([a, b, py]) => {
      const c = document.querySelector('canvas[aria-label]') as HTMLCanvasElement;
      const dpr = c.width / c.clientWidth;
      const row = c
        .getContext('2d')!
        .getImageData(Math.round(a * dpr), Math.round(py * dpr), Math.round((b - a) * dpr), 1).data;
      let n = 0;
      for (let i = 3; i < row.length; i += 4) if (row[i] > 0) n++;
      return n / Math.max(1, Math.round((b - a) * dpr));
    },
    [x0, x1, y] as const,
  );
}
