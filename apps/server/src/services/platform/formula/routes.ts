import { mappings } from '@edgeport/contract';
import { checkFormula } from '@edgeport/formula';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../../db/index.ts';
import { type Principal, principalOf } from '../../../http/principal.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';

/** Whether a preset formula of `value` compiles and gives a number (READ models); stores nothing. */
export async function validateFormula(
  db: Db,
  principal: Principal,
  ref: string,
  input: mappings.FormulaRequest,
): Promise<mappings.FormulaCheck> {
  await authorizeInOrganization(db, principal, ref, 'READ', 'models');
  const check = checkFormula(input.formula);
  return check.valid ? { valid: true } : { valid: false, error: check.error };
}

/** Spec 7 Platform: `POST /preset/formula/validate`, the check the preset editor runs while a formula is typed. */
export const formulaRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;
  app.post(
    '/api/v1/organizations/:org/preset/formula/validate',
    {
      schema: {
        operationId: 'validatePresetFormula',
        description:
          'Whether a preset formula of `value` (e.g. `value / 10`) compiles and gives a number; answers the error otherwise (READ models).',
        params: mappings.OrgParams,
        body: mappings.FormulaRequest,
        response: { 200: mappings.FormulaCheck, ...errors },
      },
    },
    async (request) => validateFormula(db, principalOf(request), request.params.org, request.body),
  );
};
