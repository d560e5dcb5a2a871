import {
  API,
  type Brand,
  type Folder,
  type Placement,
  type Video,
  type VideoTree,
} from '@logo-review/contract';
import type { ApiClient } from './support/api-client.ts';
import {
  box,
  editorTestVideo,
  seedBrands,
  seedDetections,
  seedPlacements,
  still,
  uploadVideo,
} from './editor-seed.ts';

/** Seed data of the dashboard e2e tests and the dashboard screenshots (all through the real API). */

export interface CampaignSeed {
  /** The top folder; `sub` is inside it, `other` beside it. */
  folder: Folder;
  sub: Folder;
  other: Folder;
  brands: Brand[];
  placements: Placement[];
  /** [in folder, in sub, in other] */
  videos: Video[];
}

function findFolder(folders: Folder[], parent: number | null, name: string): Folder | undefined {
  for (const f of folders) {
    if (f.parent === parent && f.name === name) return f;
    const deeper = findFolder(f.folders, parent, name);
    if (deeper) return deeper;
  }
  return undefined;
}

async function createFolder(api: ApiClient, name: string, parent: number | null): Promise<Folder> {
  const tree = await api.call<VideoTree>('POST', API.folder, { name, parent });
  return findFolder(tree.folders, parent, name)!;
}

/**
 * A small campaign under unique names: folder `{prefix} Season` with a subfolder `Cup` and a folder
 * `{prefix} Friendlies` beside it; three processed 10 s videos (one in each); two brands ('{prefix}
 * Alpha', '{prefix} Beta') and two placements with hand-drawn detections:
 * - video 1 (Season): Alpha 0–4 s on the first placement, Beta 2–3 s on the second;
 * - video 2 (Season/Cup): Alpha 1–2.5 s, Beta 5–9 s, both on the first placement;
 * - video 3 (Friendlies): Beta 0–6 s on the second placement.
 */
export async function seedCampaign(api: ApiClient, prefix: string): Promise<CampaignSeed> {
  const brands = await seedBrands(api, [`${prefix} Alpha`, `${prefix} Beta`]);
  const placements = await seedPlacements(api, [
    [`${prefix} LED board`, '#1565c0'],
    [`${prefix} Shirt`, '#c62828'],
  ]);
  const folder = await createFolder(api, `${prefix} Season`, null);
  const sub = await createFolder(api, 'Cup', folder.id);
  const other = await createFolder(api, `${prefix} Friendlies`, null);
  const file = editorTestVideo(10);
  const videos: Video[] = [];
  for (const [name, target] of [
    [`${prefix} Match 1`, folder],
    [`${prefix} Match 2`, sub],
    [`${prefix} Friendly 1`, other],
  ] as const) {
    const v = await uploadVideo(api, file, name);
    await api.call('PUT', API.videoCreate, { id: v.id, name, folder: target.id });
    videos.push({ ...v, folder: target.id });
  }
  const [a, b] = brands.map((x) => x.id);
  const [led, shirt] = placements.map((x) => x.id);
  const [v1, v2, v3] = videos.map((v) => v.id);
  await seedDetections(api, [
    still(v1, a, led, 0, 4000, box(40, 40, 160, 60)),
    still(v1, b, shirt, 2000, 3000, box(300, 200, 80, 80)),
    still(v2, a, led, 1000, 2500, box(200, 100, 120, 40)),
    still(v2, b, led, 5000, 9000, box(60, 220, 200, 90)),
    still(v3, b, shirt, 0, 6000, box(250, 120, 100, 100)),
  ]);
  return { folder, sub, other, brands, placements, videos };
}
