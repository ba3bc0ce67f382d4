import { type Static, type TLiteral, type TSchema, type TUnion, Type } from 'typebox';

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

/**
 * Request fields that may be null or hold several JSON types are ONE JSON-schema type list, never a union: the
 * server coerces types, and with a union its first branch wins — null would become '' or 0, true would become 1.
 */
export function nullableUuid(description?: string) {
  return Type.Unsafe<string | null>({
    type: ['string', 'null'],
    format: 'uuid',
    ...(description && { description }),
  });
}

/** A device value: number, boolean or string, as one type list (see `nullableUuid`). */
export const DataValue = Type.Unsafe<number | boolean | string>({ type: ['number', 'boolean', 'string'] });

type Literals<Values extends readonly string[]> = { -readonly [K in keyof Values]: TLiteral<Values[K]> };
/** A union of string literals whose static type is the literals (a plain `.map` would type it `never`). */
export function literals<const Values extends readonly string[]>(values: Values): TUnion<Literals<Values>> {
  return Type.Union(values.map((value) => Type.Literal(value))) as unknown as TUnion<Literals<Values>>;
}

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
/** What `Paged(item)` sends, with the items as the server holds them. */
export type PageOf<Item> = Omit<Static<ReturnType<typeof Paged>>, 'items'> & { items: Item[] };
