import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { badRequest, HttpError } from '../errors.ts';

/**
 * Walks a multipart request: text fields into `fields`, each file part handed to `onFile` (which
 * must consume its stream). Errors of the multipart layer become 400/413 with a readable detail.
 */
export async function readMultipart(
  req: FastifyRequest,
  opts: {
    fileSize: number;
    files: number;
    onFile: (part: MultipartFile, fields: Record<string, string>) => Promise<void>;
  },
): Promise<Record<string, string>> {
  if (!req.isMultipart()) throw badRequest('The request must be multipart/form-data.');
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { fileSize: opts.fileSize, files: opts.files } })) {
      if (part.type === 'file') await opts.onFile(part, fields);
      else fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const e = err as Error & { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'The file is too large.');
    if (e.code === 'FST_FILES_LIMIT') throw badRequest(`At most ${opts.files} files may be sent at once.`);
    if (e.code?.startsWith('FST_') || e.statusCode === 400)
      throw badRequest(`Malformed upload: ${e.message}`);
    throw err;
  }
  return fields;
}

/** A whole number field of a form, or null when absent/empty; 400 naming the field otherwise. */
export function optionalIdField(fields: Record<string, string>, name: string): number | null {
  const v = fields[name];
  if (v === undefined || v === '' || v === 'null' || v === 'undefined') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw badRequest(`${name}: must be an id (a whole number).`);
  return n;
}

export function textField(
  fields: Record<string, string>,
  name: string,
  opts: { required?: boolean; max: number },
): string | undefined {
  const v = fields[name];
  if (v === undefined || v.trim() === '') {
    if (opts.required) throw badRequest(`${name}: is required.`);
    return v === undefined ? undefined : '';
  }
  if (v.length > opts.max) throw badRequest(`${name}: must NOT have more than ${opts.max} characters.`);
  return v.trim();
}
