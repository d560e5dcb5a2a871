import {
  API,
  type Placement,
  type PlacementCreateBody,
  type PlacementUpdateBody,
} from '@logo-review/contract';
import { http } from './http-client';

export const placementsApi = {
  list: () => http.get<Placement[]>(API.placements),
  create: (body: PlacementCreateBody) => http.post<Placement[]>(API.placements, { json: body }),
  update: (body: PlacementUpdateBody) => http.put<Placement[]>(API.placements, { json: body }),
  remove: (id: number) => http.delete<Placement[]>(API.placement(id)),
};
