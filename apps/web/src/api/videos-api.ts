import {
  API,
  type FolderCreateBody,
  type VideoTree,
  type VideoUpdateBody,
  type Video,
} from '@logo-review/contract';
import { http, send } from './http-client';

export interface ExcelOptions {
  videoId: number;
  tagIds?: number[];
  brandIds?: number[];
  placementIds?: number[];
  withoutPlacement?: boolean;
}

export const videosApi = {
  tree: () => http.get<VideoTree>(API.videos),
  get: (id: number) => http.get<Video>(API.video(id)),
  createFolder: (body: FolderCreateBody) => http.post<VideoTree>(API.folder, { json: body }),
  removeFolder: (id: number) => http.delete<VideoTree>(API.folder, { json: { id } }),
  update: (body: VideoUpdateBody) => http.put<unknown>(API.videoCreate, { json: body }),
  remove: (id: number) => http.delete<unknown>(API.videoCreate, { json: { id } }),
  /** Downloads the Excel report as a Blob (the Authorization header rules out a plain link). */
  async excel(options: ExcelOptions): Promise<Blob> {
    const response = await send('GET', API.excel, {
      query: {
        videoId: options.videoId,
        tag_ids: options.tagIds?.length ? options.tagIds : undefined,
        bFilter: options.brandIds?.length ? options.brandIds : undefined,
        pFilter: options.placementIds?.length ? options.placementIds : undefined,
        without_placement: options.withoutPlacement ? 'true' : undefined,
      },
    });
    return response.blob();
  },
};
