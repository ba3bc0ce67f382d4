import { common, core, theme } from '@edgeport/contract';
import { principalOf, realmOfHost } from '../../http/principal.ts';
import type { ServiceDefinition } from '../mount.ts';
import * as service from './service.ts';

const errors = {
  400: common.ErrorResponse,
  401: common.ErrorResponse,
  403: common.ErrorResponse,
  404: common.ErrorResponse,
};

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
