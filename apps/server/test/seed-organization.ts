import { eventually, multipart, type Client } from './harness.ts';
import { pngLogo, smallVideo } from './fixtures.ts';

/** One of every kind of record of an organization, named `${prefix} brand`, `${prefix} place`, ... */
export interface SeededOrganization {
  brand: number;
  logoUrl: string;
  placement: number;
  folder: number;
  video: number;
  videoFile: string;
  project: number;
  tag: number;
  verification: number;
  detection: number;
}

/**
 * Creates, through the API as `client`, a brand with a logo, a placement, a folder with an analysed
 * video, a project, a tag, a verification video and a hand-drawn detection (the tenancy tests and
 * the security suite try to reach them from another organization).
 */
export async function seedOrganization(client: Client, prefix: string): Promise<SeededOrganization> {
  const brand = (
    await client.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: `${prefix} brand` }, [
        { field: 'example_logos', name: 'l.png', data: await pngLogo() },
      ]),
    })
  ).json();
  const placement = (await client.post('/api/videos/placements/', { localized_name: `${prefix} place` }))
    .json()
    .find((p: { manual: boolean }) => p.manual).id;
  const folder = (await client.post('/api/videos/folder/', { name: `${prefix} folder`, parent: null })).json()
    .folders[0].id;
  const video = (
    await client.req({
      method: 'POST',
      url: '/api/videos/create/',
      ...multipart({ name: `${prefix} video`, folder: String(folder) }, [
        { field: 'videoFile', name: 'v.mp4', data: smallVideo() },
      ]),
    })
  ).json();
  const project = (await client.post('/api/videos/project/', { name: `${prefix} project` })).json()[0].id;
  const tag = (await client.post('/api/videos/tags/', { name: `${prefix} tag`, brand: brand.id })).json()[0]
    .id;
  await eventually(async () => (await client.get(`/api/videos/${video.id}/`)).json().status === 'OK');
  const verification = (
    await client.post('/api/videos/verification/', { name: `${prefix} proof`, video: video.id })
  ).json()[0].id;
  const detection = (
    await client.post('/api/videos/detections/', {
      detections: [
        {
          video: video.id,
          brand: brand.id,
          placement,
          time_begin: 0,
          time_end: 1000,
          coordinates: [{ start_time: 0, end_time: 1000, points: [0, 0, 10, 0, 10, 10, 0, 10] }],
        },
      ],
    })
  ).json()[0].id;
  return {
    brand: brand.id,
    logoUrl: brand.logos[0].icon_url,
    placement,
    folder,
    video: video.id,
    videoFile: video.video_file,
    project,
    tag,
    verification,
    detection,
  };
}
