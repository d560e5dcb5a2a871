import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  API,
  VIDEO_STATUS,
  type Brand,
  type Detection,
  type NewDetection,
  type Placement,
  type Video,
  type VideoTree,
} from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';
import { testPatternVideo } from './support/fixtures.ts';

/** Seed data of the editor tests, the screenshots and the in-browser benchmark (all through the real API). */

/** An H.264 test pattern (ffmpeg lavfi testsrc), cached between runs. */
export function editorTestVideo(seconds = 10, size = '640x360', fps = 25): string {
  return testPatternVideo(`editor-${seconds}s-${size}-${fps}.mp4`, { seconds, size, fps, gop: fps });
}

/** Creates brands by name (no logos: nothing to index, so the analysis finds nothing). */
export async function seedBrands(api: ApiClient, names: string[]): Promise<Brand[]> {
  for (const name of names) {
    const form = new FormData();
    form.append('name', name);
    form.append('localized_name', name);
    await api.call('POST', API.brandCreate, form);
  }
  const all = await api.call<Brand[]>('GET', `${API.brands}?refresh=false`);
  return names.map((n) => all.find((b) => b.name === n)!);
}

export async function seedPlacements(api: ApiClient, list: Array<[string, string]>): Promise<Placement[]> {
  for (const [localized_name, color] of list)
    await api.call('POST', API.placements, { localized_name, color });
  const all = await api.call<Placement[]>('GET', API.placements);
  return list.map(([n]) => all.find((p) => p.localized_name === n)!);
}

function findVideo(tree: VideoTree, name: string): Video | undefined {
  const inFolders = (folders: VideoTree['folders']): Video | undefined => {
    for (const f of folders) {
      const v = f.videos.find((x) => x.name === name) ?? inFolders(f.folders);
      if (v) return v;
    }
    return undefined;
  };
  return tree.videos.find((v) => v.name === name) ?? inFolders(tree.folders);
}

/** Uploads a video file and waits until the server processed it (status OK). */
export async function uploadVideo(
  api: ApiClient,
  file: string,
  name: string,
  timeoutMs = 180_000,
): Promise<Video> {
  const form = new FormData();
  form.append('name', name);
  form.append('folder', '');
  form.append('videoFile', new Blob([readFileSync(file)], { type: 'video/mp4' }), path.basename(file));
  await api.call('POST', API.videoCreate, form);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = findVideo(await api.call<VideoTree>('GET', API.videos), name);
    if (v?.status === VIDEO_STATUS.OK) {
      // Brands with logos that other test files created may let the analysis find something in the test
      // pattern; the editor tests start from exactly the detections they seed.
      const found = await api.call<Detection[]>(
        'GET',
        `${API.detections}?videoId=${v.id}&startTime=0&endTime=${Math.ceil(v.duration * 1000) + 1000}`,
      );
      if (found.length > 0)
        await api.call('PUT', API.detectionsReport, { detectionIds: found.map((d) => d.id), type: 'delete' });
      return api.call<Video>('GET', API.video(v.id));
    }
    if (v?.status === VIDEO_STATUS.ERROR) throw new Error(`processing ${name} failed: ${v.status_reason}`);
    if (Date.now() > deadline) throw new Error(`video ${name} not processed in time (status ${v?.status})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** What an editor test starts from: its brands, its placements and one processed video. */
export interface EditorSetup {
  brands: Brand[];
  placements: Placement[];
  video: Video;
}

/**
 * Creates the brands and placements (in the given order) and uploads an `editorTestVideo(videoSeconds)` as
 * `videoName`, waiting until it is processed and holds no detections.
 */
export async function seedEditorSetup(
  api: ApiClient,
  spec: {
    brands: string[];
    placements: Array<[string, string]>;
    videoName: string;
    videoSeconds?: number;
  },
): Promise<EditorSetup> {
  const brands = await seedBrands(api, spec.brands);
  const placements = await seedPlacements(api, spec.placements);
  const video = await uploadVideo(api, editorTestVideo(spec.videoSeconds), spec.videoName);
  return { brands, placements, video };
}

/** An axis-aligned box as the 8 corner numbers (clockwise from top-left). */
/** The editor benchmarks' catalogue: 8 brands and 8 placements of distinct colours. */
export async function seedBenchCatalog(
  api: ApiClient,
): Promise<{ brands: Brand[]; placements: Placement[] }> {
  const brands = await seedBrands(
    api,
    Array.from({ length: 8 }, (_, i) => `Brand ${i + 1}`),
  );
  const colors = ['#e53935', '#1e88e5', '#43a047', '#fdd835', '#8e24aa', '#00acc1', '#000000', '#ff7043'];
  const placements = await seedPlacements(
    api,
    colors.map((c, i) => [`Placement ${i + 1}`, c] as [string, string]),
  );
  return { brands, placements };
}

export function box(x: number, y: number, w: number, h: number): number[] {
  return [x, y, x + w, y, x + w, y + h, x, y + h];
}

/** A detection held still over [begin, end] ms. */
export function still(
  video: number,
  brand: number,
  placement: number,
  begin: number,
  end: number,
  points: number[],
): NewDetection {
  return {
    video,
    brand,
    placement,
    time_begin: begin,
    time_end: end,
    coordinates: [{ start_time: begin, end_time: end, points }],
  };
}

/** POSTs detections in chunks the API accepts (1000 per call). */
export async function seedDetections(api: ApiClient, list: NewDetection[]): Promise<Detection[]> {
  const out: Detection[] = [];
  for (let i = 0; i < list.length; i += 1000) {
    out.push(
      ...(await api.call<Detection[]>('POST', API.detections, { detections: list.slice(i, i + 1000) })),
    );
  }
  return out;
}

/**
 * Seeds detections and sets them UNREVIEWED (the review call sets any state): the API creates hand-drawn
 * (MANUAL) detections only, and the review loop needs engine-like ones that wait for a verdict.
 */
export async function seedUnreviewed(api: ApiClient, list: NewDetection[]): Promise<Detection[]> {
  const created = await seedDetections(api, list);
  for (let i = 0; i < created.length; i += 1000) {
    await api.call('PUT', API.detectionsReview, {
      detectionIds: created.slice(i, i + 1000).map((d) => d.id),
      review: 'UNREVIEWED',
    });
  }
  return created.map((d) => ({ ...d, review: 'UNREVIEWED' }));
}
