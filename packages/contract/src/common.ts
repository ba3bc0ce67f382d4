import { type Static, type TSchema, Type } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
  },
  {
    $id: 'ErrorResponse',
    description: 'Every failed call answers with this shape; message names the offending field.',
  },
);

export const Uuid = Type.String({ format: 'uuid' });

/** Server-side paging, search and sort of every admin list (spec 9 page sizes are the callers' choice). */
export const PageQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    sort: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z]+$' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

/** One page of a list and the total number of matching rows. */
export function Paged<Item extends TSchema>(item: Item) {
  return Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
  });
}
