import {
  API,
  type LoginBody,
  type Profile,
  type ProfileUpdateBody,
  type Session,
} from '@logo-review/contract';
import { http } from './http-client';

export const profileApi = {
  login: (body: LoginBody) => http.post<Session>(API.login, { json: body, anonymous: true }),
  logout: () => http.post<unknown>(API.logout),
  get: () => http.get<Profile>(API.profile),
  update: (body: ProfileUpdateBody) => http.put<Profile>(API.profile, { json: body }),
  /** A new organization API key, returned only this once; the old key stops working. */
  rotateApiKey: () => http.post<{ api_key: string }>(API.apiKeyRotate),
};
