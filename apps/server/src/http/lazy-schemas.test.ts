import Fastify, { type FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers, lazySerializerCompiler, lazyValidatorCompiler } from './lazy-schemas.ts';

const badValue: FastifySchemaValidationError = {
  keyword: 'type',
  instancePath: '',
  schemaPath: '#/type',
  params: {},
  message: 'bad',
};
const route = { schema: {}, method: 'POST', url: '/items', httpPart: 'body', httpStatus: '200' };

describe('lazyValidatorCompiler', () => {
  it('compiles a validator on its first call, once, and hands on its result and errors', () => {
    const waiting = new Set<() => unknown>();
    let compiled = 0;
    const compile = lazyValidatorCompiler(() => {
      compiled += 1;
      const validate = Object.assign(
        (data: unknown) => {
          validate.errors = data === 'good' ? null : [badValue];
          return data === 'good';
        },
        { errors: null as FastifySchemaValidationError[] | null },
      );
      return validate;
    }, waiting);
    const validate = compile(route);
    expect(compiled).toBe(0);
    expect(waiting.size).toBe(1);
    expect(validate('bad')).toBe(false);
    expect(validate.errors).toEqual([badValue]);
    expect(validate('good')).toBe(true);
    expect(validate.errors).toBeNull();
    expect(compiled).toBe(1);
    expect(waiting.size).toBe(0);
  });
});

describe('lazySerializerCompiler', () => {
  it('compiles a serializer on its first call, once', () => {
    const waiting = new Set<() => unknown>();
    let compiled = 0;
    const compile = lazySerializerCompiler(() => {
      compiled += 1;
      return (data: unknown) => JSON.stringify(data);
    }, waiting);
    const serialize = compile(route);
    expect(compiled).toBe(0);
    expect(serialize({ a: 1 })).toBe('{"a":1}');
    expect(serialize({ a: 2 })).toBe('{"a":2}');
    expect(compiled).toBe(1);
    expect(waiting.size).toBe(0);
  });
});

describe('lazySchemaCompilers in Fastify', () => {
  const itemSchema = {
    body: {
      type: 'object',
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 1 } },
      additionalProperties: false,
    },
    response: {
      200: { type: 'object', properties: { count: { type: 'integer' }, label: { type: 'string' } } },
    },
  } as const;

  async function appWithOneRoute() {
    const schemas = lazySchemaCompilers();
    const app = Fastify({ schemaController: { compilersFactory: schemas.compilersFactory } });
    app.post('/items', { schema: itemSchema }, async (request) => ({
      ...(request.body as { count: number }),
      secret: 'never serialized',
    }));
    await app.ready();
    return app;
  }

  it('validates a request as Fastify would, with the errors of a failed validation', async () => {
    const app = await appWithOneRoute();
    const accepted = await app.inject({ method: 'POST', url: '/items', payload: { count: 2 } });
    expect(accepted.statusCode).toBe(200);
    const refused = await app.inject({ method: 'POST', url: '/items', payload: { count: 0 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('body/count must be >= 1');
    const wrongType = await app.inject({ method: 'POST', url: '/items', payload: { count: 'many' } });
    expect(wrongType.json().message).toBe('body/count must be integer');
    await app.close();
  });

  it('serializes a response through its schema, leaving out what the schema does not name', async () => {
    const app = await appWithOneRoute();
    const response = await app.inject({ method: 'POST', url: '/items', payload: { count: 3 } });
    expect(response.body).toBe('{"count":3}');
    await app.close();
  });

  it('compileAll compiles what is still waiting, and fails on a schema that cannot compile', async () => {
    const schemas = lazySchemaCompilers();
    const app = Fastify({ schemaController: { compilersFactory: schemas.compilersFactory } });
    app.post(
      '/broken',
      { schema: { body: { type: 'object', properties: { n: { type: 'nonsense' } } } } },
      () => ({}),
    );
    await app.ready();
    expect(() => schemas.compileAll()).toThrow(/nonsense|type/);
    await app.close();
  });
});
