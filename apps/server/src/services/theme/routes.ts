import { core, theme } from '@edgeport/contract';
import { principalOf, realmOfHost } from '../../http/principal.ts';
import type { ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import * as service from './service.ts';

export const themeService: ServiceDefinition = {
  name: 'theme',
  title: 'Edgeport theme service',
  routes: async (app, { database }) => {
    const { db } = database;

    app.get(
      '/theme',
      { config: { public: true }, schema: { operationId: 'getThemeByHost', response: { 200: theme.Theme } } },
      async (request) => service.themeForRealm(db, realmOfHost(request.headers.host)),
    );

    app.get(
      '/:org/theme',
      {
        schema: {
          operationId: 'getOrganizationTheme',
          params: core.OrganizationParams,
          response: { 200: theme.Theme, ...errors },
        },
      },
      async (request) => service.organizationTheme(db, principalOf(request), request.params.org),
    );

    app.put(
      '/:org/theme',
      {
        schema: {
          operationId: 'updateOrganizationTheme',
          params: core.OrganizationParams,
          body: theme.ThemeUpdate,
          response: { 200: theme.Theme, ...errors },
        },
      },
      async (request) =>
        service.changeOrganizationTheme(db, principalOf(request), request.params.org, request.body),
    );
  },
};
