import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { badRequest } from './errors.ts';
import { answerError, refuseNulCharacters } from './request-guards.ts';

async function appWith(handler: () => unknown) {
  const app = Fastify();
  app.setErrorHandler(answerError);
  app.addHook('preValidation', refuseNulCharacters);
  app.post('/things/:name', async () => handler());
  await app.ready();
  return app;
}

describe('request guards', () => {
  it('answers unexpected failures with a plain 500 that reveals nothing of the cause', async () => {
    const app = await appWith(() => {
      throw new Error('Failed query: select secret from accounts params: 42');
    });
    const response = await app.inject({ method: 'POST', url: '/things/a', payload: {} });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'internal server error',
    });
  });

  it('keeps the message of errors written for the caller', async () => {
    const app = await appWith(() => {
      throw badRequest('name must be shorter');
    });
    const response = await app.inject({ method: 'POST', url: '/things/a', payload: {} });
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'name must be shorter',
    });
  });

  it('refuses NUL characters in path, query and body before the handler runs, naming where', async () => {
    let ran = false;
    const app = await appWith(() => {
      ran = true;
      return {};
    });
    const inPath = await app.inject({ method: 'POST', url: '/things/a%00b', payload: {} });
    expect(inPath.statusCode).toBe(400);
    expect(inPath.json().message).toBe('params.name must not contain the NUL character (U+0000)');
    const inQuery = await app.inject({ method: 'POST', url: '/things/a?search=x%00', payload: {} });
    expect(inQuery.json().message).toContain('query.search');
    const inBody = await app.inject({
      method: 'POST',
      url: '/things/a',
      payload: { list: [{ name: 'a\u0000' }] },
    });
    expect(inBody.json().message).toContain('body.list.0.name');
    expect(ran).toBe(false);
  });
});
