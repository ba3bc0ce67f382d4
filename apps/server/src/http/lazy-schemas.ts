import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type ValidationResult = ReturnType<FastifySchemaCompiler<unknown>>;
type SerializerCompiler = ReturnType<ReturnType<typeof SerializerSelector>>;
type Compile = () => unknown;

/**
 * Route schemas compiled when a route is first used rather than when the server starts. Fastify compiles every route's
 * request validators (Ajv) and response serializers (fast-json-stringify) at start: for this server's several hundred
 * routes that is about 40 MB of generated code and heap the process keeps for good (measured: idle RSS 263 → 224 MB),
 * though an installation calls most routes rarely. The first call of a route pays its compilation (milliseconds).
 *
 * `compileAll()` compiles what is still waiting: a test uses it to check that every route's schemas compile, which
 * Fastify would otherwise have checked at start.
 */
export function lazySchemaCompilers(): { compilersFactory: CompilersFactory; compileAll(): void } {
  const waiting = new Set<Compile>();
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  const buildValidator = (...factoryArgs: Parameters<typeof validators>) => {
    // The Ajv compiler's typings describe Ajv's own compile; Fastify calls it with a route's schema definition.
    const compile = validators(...factoryArgs) as unknown as FastifySchemaCompiler<unknown>;
    return lazyValidatorCompiler(compile, waiting);
  };
  const buildSerializer = (...factoryArgs: Parameters<typeof serializers>) =>
    lazySerializerCompiler(serializers(...factoryArgs), waiting);
  return {
    compilersFactory: {
      buildValidator: buildValidator as unknown as CompilersFactory['buildValidator'],
      buildSerializer,
    },
    compileAll: () => {
      for (const compile of [...waiting]) compile();
    },
  };
}

/** `compile()` run on the first call only; until then it is in `waiting` (for `compileAll`). */
function onFirstUse<Compiled>(compile: () => Compiled, waiting: Set<Compile>): () => Compiled {
  let compiled: Compiled | undefined;
  const get = () => {
    if (compiled === undefined) {
      waiting.delete(get);
      compiled = compile();
    }
    return compiled;
  };
  waiting.add(get);
  return get;
}

/** A validator compiler whose validators compile on their first call; `waiting` holds those not compiled yet. */
export function lazyValidatorCompiler(
  compile: FastifySchemaCompiler<unknown>,
  waiting: Set<Compile>,
): FastifySchemaCompiler<unknown> {
  return (route) => {
    const validator = onFirstUse(() => compile(route), waiting);
    const lazy: ValidationResult = (data) => {
      const validate = validator();
      const result = validate(data);
      // Fastify reads a failed validation's errors off the function it called.
      lazy.errors = validate.errors;
      return result;
    };
    return lazy;
  };
}

/** A serializer compiler whose serializers compile on their first call; `waiting` holds those not compiled yet. */
export function lazySerializerCompiler(
  compile: SerializerCompiler,
  waiting: Set<Compile>,
): SerializerCompiler {
  return (route) => {
    const serializer = onFirstUse(() => compile(route), waiting);
    return (data) => serializer()(data);
  };
}
