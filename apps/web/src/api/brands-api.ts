import { API, type Brand, type BrandForm } from '@logo-review/contract';
import { http, send } from './http-client';

function toFormData(form: BrandForm): FormData {
  const data = new FormData();
  if (form.id !== undefined) data.append('id', String(form.id));
  if (form.name !== undefined) data.append('name', form.name);
  if (form.localized_name !== undefined) data.append('localized_name', form.localized_name);
  if (form.url !== undefined) data.append('url', form.url);
  for (const file of form.example_logos) data.append('example_logos', file, file.name);
  return data;
}

export const brandsApi = {
  list: (refresh = false) => http.get<Brand[]>(API.brands, { query: { refresh: String(refresh) } }),
  /** Creates (no id) or updates (id); `updated` follows the spec: status 200 means updated. */
  async save(form: BrandForm): Promise<{ updated: boolean }> {
    const response = await send(form.id === undefined ? 'POST' : 'PUT', API.brandCreate, {
      form: toFormData(form),
    });
    return { updated: response.status === 200 };
  },
  deactivate: (id: number) => http.put<unknown>(API.brandDeactivate, { json: { id } }),
  remove: (id: number) => http.delete<unknown>(API.brandDeactivate, { json: { id } }),
};
