import {
  API,
  type VerificationCreateBody,
  type VerificationUpdateBody,
  type VerificationVideo,
} from '@logo-review/contract';
import { http } from './http-client';

export const verificationApi = {
  list: () => http.get<VerificationVideo[]>(API.verification),
  create: (body: VerificationCreateBody) => http.post<VerificationVideo[]>(API.verification, { json: body }),
  update: (body: VerificationUpdateBody) => http.put<VerificationVideo[]>(API.verification, { json: body }),
  remove: (id: number) => http.delete<unknown>(API.verificationItem(id)),
};
