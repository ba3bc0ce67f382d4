import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses } from '../../responses.ts';
import * as service from './service.ts';

export const onboardingRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  app.post(
    '/api/v1/organizations/selfOnBoarding',
    {
      config: { public: true, rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        operationId: 'selfOnBoarding',
        body: core.SelfOnboarding,
        response: { 201: core.SelfOnboardingResult, 409: errorResponses[400], ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.selfOnboard(database.db, request.headers.host, request.body)),
  );
};
