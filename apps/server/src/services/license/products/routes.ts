import { common, licenseProducts as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/products';

/** Spec 7 "Licence": products CRUD, count and versions of the selling organization (a dealer or a top-level one). */
export const productsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database, clock }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getProducts',
        description:
          'The products {org} sells with their current version, paged (page size default and maximum 10000, spec ' +
          '9); search matches code and name; sort by code, name, resourceType, createdAt, updatedAt (READ products).',
        params: contract.OrganizationParams,
        querystring: contract.ProductListQuery,
        response: { 200: contract.ProductPage, ...errors },
      },
    },
    async (request) => service.listProducts(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${base}/count`,
    {
      schema: {
        operationId: 'getProductCount',
        description: 'How many products {org} sells (same filters as the list) (READ products).',
        params: contract.OrganizationParams,
        querystring: contract.ProductCountQuery,
        response: { 200: contract.Count, ...errors },
      },
    },
    async (request) => service.countProducts(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createProduct',
        description:
          'A new product with its version 1 (CREATE products; only a dealer or a top-level organization sells, ' +
          'else 403). Prices are integer minor units (cents). 409 when the code is taken in {org}.',
        params: contract.OrganizationParams,
        body: contract.ProductCreate,
        response: { 201: contract.Product, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createProduct(db, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getProduct',
        description: 'One product of {org} with its current version (READ products).',
        params: contract.ProductParams,
        response: { 200: contract.Product, ...errors },
      },
    },
    async (request) => service.getProduct(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateProduct',
        description:
          'Changes the name and description of a product (UPDATE products). What a licence grants and costs ' +
          'changes through a new version (POST .../versions).',
        params: contract.ProductParams,
        body: contract.ProductUpdate,
        response: { 200: contract.Product, ...errors },
      },
    },
    async (request) =>
      service.updateProduct(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.body,
        clock.now(),
      ),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteProduct',
        description:
          'Deletes a product (DELETE products); 409 once a licence of it was issued (licences keep their product).',
        params: contract.ProductParams,
        response: { 204: Type.Null(), ...refusals },
      },
    },
    async (request, reply) => {
      await service.deleteProduct(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id/versions`,
    {
      schema: {
        operationId: 'getProductVersions',
        description: 'Every version of a product, newest first (READ products).',
        params: contract.ProductParams,
        response: { 200: contract.ProductVersions, ...errors },
      },
    },
    async (request) => service.listVersions(db, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    `${base}/:id/versions`,
    {
      schema: {
        operationId: 'createProductVersion',
        description:
          'A new version of a product (grant, term, price); it becomes the current one for new licences, issued ' +
          'licences keep their version (UPDATE products).',
        params: contract.ProductParams,
        body: contract.ProductVersionCreate,
        response: { 201: contract.ProductVersion, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.createVersion(
            db,
            principalOf(request),
            request.params.org,
            request.params.id,
            request.body,
            clock.now(),
          ),
        ),
  );
};
