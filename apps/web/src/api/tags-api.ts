import { API, type Tag, type TagCreateBody, type TagUpdateBody } from '@logo-review/contract';
import { http } from './http-client';

export const tagsApi = {
  list: () => http.get<Tag[]>(API.tags),
  create: (body: TagCreateBody) => http.post<Tag[]>(API.tags, { json: body }),
  update: (body: TagUpdateBody) => http.put<Tag[]>(API.tags, { json: body }),
};
