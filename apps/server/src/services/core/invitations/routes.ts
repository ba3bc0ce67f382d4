import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const orgInvitations = '/api/v1/organizations/:org/invitations';
const myInvitations = '/api/v1/account/invitations';

/**
 * Invitations of existing accounts into an organization (issue 32, F1): the organization lists and revokes its own;
 * the invited account's owner lists theirs and accepts or declines. They are made by POST .../users (answer 202).
 */
export const invitationRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    orgInvitations,
    {
      schema: {
        operationId: 'getOrganizationInvitations',
        description: 'Pending invitations of existing accounts into the organization, oldest first.',
        params: core.OrganizationUsersParams,
        querystring: core.InvitationListQuery,
        response: { 200: common.Paged(core.OrganizationInvitation), ...errors },
      },
    },
    async (request) =>
      service.listOrganizationInvitations(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${orgInvitations}/:id`,
    {
      schema: {
        operationId: 'getOrganizationInvitation',
        params: core.OrganizationInvitationParams,
        response: { 200: core.OrganizationInvitation, ...errors },
      },
    },
    async (request) =>
      service.getOrganizationInvitation(db, principalOf(request), request.params.org, request.params.id),
  );

  app.delete(
    `${orgInvitations}/:id`,
    {
      schema: {
        operationId: 'revokeOrganizationInvitation',
        params: core.OrganizationInvitationParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.revokeInvitation(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    myInvitations,
    {
      schema: {
        operationId: 'getAccountInvitations',
        description: "The caller's own pending invitations into organizations of the realm.",
        response: { 200: Type.Array(core.AccountInvitation), ...errors },
      },
    },
    async (request) => service.myInvitations(db, principalOf(request)),
  );

  app.post(
    `${myInvitations}/:id/accept`,
    {
      schema: {
        operationId: 'acceptAccountInvitation',
        description: 'Joins the organization with the invited roles and groups that still exist; answers it.',
        params: core.AccountInvitationParams,
        response: { 200: core.Organization, ...errors, 409: common.ErrorResponse },
      },
    },
    async (request) => service.acceptInvitation(db, principalOf(request), request.params.id),
  );

  app.post(
    `${myInvitations}/:id/decline`,
    {
      schema: {
        operationId: 'declineAccountInvitation',
        params: core.AccountInvitationParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.declineInvitation(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
