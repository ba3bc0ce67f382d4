import { Alert, Anchor, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { isHttpError } from '../../shared/http/errors.ts';
import { AppFrame } from './AppFrame.tsx';
import { fetchApp } from './api.ts';

/** Spec 2: /store/container/{id}, one app of the store catalogue embedded in the portal. */
export default function AppContainerPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { organization, token } = useOrganizationApi();
  const app = useQuery({
    queryKey: ['store-app', organization.id, id],
    queryFn: async ({ signal }) => fetchApp(await token(), id, signal),
    // An unknown app stays unknown: only failures that may pass are asked again.
    retry: (count, error) => count < 2 && !(isHttpError(error) && error.kind === 'status'),
    staleTime: 60_000,
  });

  if (app.isPending)
    return (
      <Center h={240}>
        <Loader aria-label={t('appContainer.loading')} />
      </Center>
    );
  if (app.isError) {
    const unknown = isHttpError(app.error) && (app.error.status === 404 || app.error.status === 400);
    return (
      <Stack gap="sm" maw={640} data-testid="app-container-error">
        <Alert
          color={unknown ? 'yellow' : 'red'}
          title={t(unknown ? 'appContainer.unknownTitle' : 'appContainer.errorTitle')}
        >
          {unknown ? t('appContainer.unknown', { id }) : describeError(t, app.error)}
        </Alert>
        <Anchor component={Link} to="/home">
          {t('appContainer.backHome')}
        </Anchor>
      </Stack>
    );
  }
  return <AppFrame key={app.data.id} app={app.data} />;
}
