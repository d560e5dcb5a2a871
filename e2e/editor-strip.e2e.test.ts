import { beforeAll, describe, expect, it } from 'vitest';
import { API, type Project } from '@logo-review/contract';
import { EditorPageObject } from './editor-page-objects.ts';
import { box, seedDetections, seedEditorSetup, still, type EditorSetup } from './editor-seed.ts';
import { uniqueName } from './support/browser.ts';
import { loginApi, useSignedInPage } from './support/session.ts';

const session = useSignedInPage({ width: 1440, height: 900 });
let setup: EditorSetup;
let names: string[];
let idB: number;

beforeAll(async () => {
  const api = await loginApi();
  const prefix = uniqueName('Strip');
  names = [`${prefix} A`, `${prefix} B`, `${prefix} Hidden`];
  setup = await seedEditorSetup(api, {
    brands: names,
    placements: [[`${prefix} Board`, '#1565c0']],
    videoName: `${prefix} video`,
  });
  const [a, b, hidden] = setup.brands.map((x) => x.id);
  const p = setup.placements[0].id;
  const v = setup.video.id;
  const created = await seedDetections(api, [
    still(v, a, p, 1000, 2000, box(10, 10, 50, 30)),
    still(v, a, p, 6000, 7000, box(10, 10, 50, 30)),
    still(v, b, p, 4000, 5000, box(100, 10, 50, 30)),
    still(v, hidden, p, 3000, 8000, box(200, 10, 50, 30)),
  ]);
  idB = created[2].id;
  // The video's project hides the third brand: the strip leaves it out, as the editor's table does.
  const projects = await api.call<Project[]>('POST', API.projects, {
    name: `${prefix} project`,
    filtered_brands: [hidden],
  });
  const project = projects.find((x) => x.name === `${prefix} project`)!;
  await api.call('PUT', API.videoCreate, {
    id: v,
    name: setup.video.name,
    folder: null,
    project: project.id,
  });
}, 300_000);

describe("editor's detection strip", () => {
  it('shows a row per shown brand over the whole video; a click seeks', async () => {
    const page = session.page();
    const editor = new EditorPageObject(page);
    await editor.open(setup.video.id, 0);
    const strip = page.getByRole('group', { name: 'Detection strip' });
    await strip.waitFor();
    const rowA = strip.getByLabel(`${names[0]}: 2 detections`);
    const rowB = strip.getByLabel(`${names[1]}: 1 detections`);
    await rowA.waitFor();
    expect(await rowA.getByTestId('strip-mark').count()).toBe(2);
    expect(await rowB.getByTestId('strip-mark').count()).toBe(1);
    expect(await strip.getByTestId('strip-row').count()).toBe(2);
    expect(await strip.getByText(names[2]).count()).toBe(0);

    // The marks sit where the detections are: B's 4..5 s of 10 s.
    const row = (await rowB.boundingBox())!;
    const mark = (await rowB.getByTestId('strip-mark').boundingBox())!;
    expect((mark.x - row.x) / row.width).toBeCloseTo(0.4, 1);
    expect(mark.width / row.width).toBeCloseTo(0.1, 1);

    // A click on a mark seeks to its start; elsewhere to the clicked time.
    await rowB.click({ position: { x: row.width * 0.45, y: row.height / 2 } });
    await editor.expectTime('00:00:04:00 / 00:00:10:00');
    // The editor is really there: B's detection is active (the hidden brand's is not listed).
    await editor.expectListed([idB]);
    await rowA.click({ position: { x: row.width * 0.9, y: row.height / 2 } });
    // 90 % of the row is about 9 s: the frame at or just before it (the click lands within a pixel).
    await editor.expectTime(/^00:00:(08:2[0-4]|09:0[0-4]) \/ 00:00:10:00$/);
  });
});
