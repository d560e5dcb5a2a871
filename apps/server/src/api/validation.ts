import { Ajv, type ErrorObject, type AnySchema } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ??
  addFormatsImport) as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * Two validators: query strings and path params arrive as text and are coerced ("5" -> 5, a single
 * value -> an array); JSON bodies are checked strictly, so a wrong-typed field is a 400, not a guess.
 */
export function createValidators(sharedSchemas: AnySchema[]) {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  for (const s of sharedSchemas) {
    strict.addSchema(s);
    coercing.addSchema(s);
  }
  return ({ schema, httpPart }: { schema: AnySchema; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema);
}

/** One readable sentence naming the field, e.g. "name: must NOT have fewer than 1 characters". */
export function formatValidationError(
  errors: (FastifySchemaValidationError | ErrorObject)[],
  context?: string,
): string {
  const e = errors[0];
  if (!e) return 'Invalid request.';
  const params = e.params as Record<string, unknown>;
  const base = (e.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') {
    const field = [base, String(params.missingProperty)].filter(Boolean).join('.');
    return `${field}: is required${context && context !== 'body' ? ` in the ${context}` : ''}.`;
  }
  const field = base || context || 'body';
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'pattern' && field.endsWith('color')) message = 'must be a hex colour like #1e88e5';
  return `${field}: ${message}.`;
}
