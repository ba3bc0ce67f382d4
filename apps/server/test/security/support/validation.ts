import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { JsonSchema } from './openapi.ts';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

/**
 * A validator configured as the server's (Fastify's ajv-compiler defaults plus the options of `buildApp`): type
 * coercion of scalars and one-element arrays, defaults filled in, ajv-formats. A candidate it rejects violates the
 * operation's schema; one it accepts is not malformed by construction and is skipped.
 *
 * One deliberate difference: `strict: false` (so `strictNumbers` is off). With Ajv's default `strictNumbers`, as on
 * the server, coercing the query text `1e999` or `Infinity` yields Infinity and skips minimum/maximum, so the
 * server lets `?page=1e999` through although the schema says `maximum: 100000`. Here such input counts as
 * malformed (it is, by the schema), so the fuzzing finds what the handlers do with it.
 */
const ajv = new Ajv({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  strict: false,
  validateFormats: true,
});
addFormats(ajv);

const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** A copy as the server receives it (JSON), since coercion and defaults mutate what they validate. */
const copyOf = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

/** Whether the server's validation accepts `value`. */
export function acceptedBy(schema: JsonSchema, value: unknown): boolean {
  return validatorFor(schema)(copyOf(value)) === true;
}

/** The validator's complaint, for failure messages of the harness. */
export function complaint(schema: JsonSchema, value: unknown): string {
  const validate = validatorFor(schema);
  validate(copyOf(value));
  return ajv.errorsText(validate.errors);
}
