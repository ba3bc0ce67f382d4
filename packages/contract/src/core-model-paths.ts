import { type Static, Type } from 'typebox';

/** Where a known model path comes from: registered with POST /modelPaths, or a path of one of the data models. */
export const ModelPathSource = Type.Union([Type.Literal('registered'), Type.Literal('model')]);
export type ModelPathSource = Static<typeof ModelPathSource>;

/** A model path the organization's data roles can grant (spec 7 Core "Model paths"). */
export const KnownModelPath = Type.Object({
  path: Type.String(),
  /** `registered` when it was registered, even if a model has it too. */
  source: ModelPathSource,
});
export type KnownModelPath = Static<typeof KnownModelPath>;

export const ModelPathQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    /** Only paths containing this text (any case). */
    search: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type ModelPathQuery = Static<typeof ModelPathQuery>;

export const ModelPathPage = Type.Object({
  items: Type.Array(KnownModelPath),
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
});
export type ModelPathPage = Static<typeof ModelPathPage>;

export const ModelPathRegistration = Type.Object(
  {
    /** Each starts with '/', none twice; a path registered already stays as it is. */
    paths: Type.Array(Type.String({ maxLength: 500 }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);
export type ModelPathRegistration = Static<typeof ModelPathRegistration>;
