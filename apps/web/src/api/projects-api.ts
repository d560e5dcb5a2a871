import { API, type Project, type ProjectBody } from '@logo-review/contract';
import { http } from './http-client';

export const projectsApi = {
  list: () => http.get<Project[]>(API.projects),
  create: (body: ProjectBody) => http.post<Project[]>(API.projects, { json: body }),
  update: (body: ProjectBody) => http.put<Project[]>(API.projects, { json: body }),
  remove: (id: number) => http.delete<Project[]>(API.projects, { json: { id } }),
};
