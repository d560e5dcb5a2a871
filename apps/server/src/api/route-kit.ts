import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export type Api = FastifyInstance<
  import('fastify').RawServerDefault,
  import('fastify').RawRequestDefaultExpression,
  import('fastify').RawReplyDefaultExpression,
  import('fastify').FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Fastify plugin factory typed for TypeBox. */
export const routes =
  (fn: (app: Api) => void | Promise<void>) =>
  async (app: FastifyInstance): Promise<void> => {
    await fn(app.withTypeProvider<TypeBoxTypeProvider>());
  };

export const Ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
export const ErrorRef = Ref('ErrorBody');
/** The usual error answers of an authenticated route. */
export const errors = { 400: ErrorRef, 401: ErrorRef, 404: ErrorRef };
export const Detail = Type.Object({ detail: Type.String() });
