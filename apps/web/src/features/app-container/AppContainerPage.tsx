import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isHttpError, isNotFound } from '../../shared/http/errors.ts';
import { AppFrame } from './AppFrame.tsx';
import { fetchApp, fetchLaunch } from './api.ts';

/** Only failures that may pass are asked again: an unknown, uninstalled or unpaid app stays so. */
const retry = (count: number, error: unknown) =>
  count < 2 && !(isHttpError(error) && error.kind === 'status');

/**
 * Spec 2: /store/container/{id}, one app of the store catalogue embedded in the portal. It runs only an app the
 * organization installed and is not in arrears for: the server hands out the entry address for nothing else.
 */
export default function AppContainerPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { organization, ability, token } = useOrganizationApi();
  const listing = useQuery({
    queryKey: ['store-app', organization.id, id],
    queryFn: async ({ signal }) => fetchApp(await token(), id, signal),
    retry,
    staleTime: 60_000,
  });
  const launch = useQuery({
    queryKey: ['app-launch', organization.id, id],
    queryFn: async ({ signal }) => fetchLaunch(await token(), organization.id, id, signal),
    retry,
    staleTime: 60_000,
  });

  if (listing.isPending || (listing.isSuccess && launch.isPending))
    return (
      <Center h={240}>
        <Loader aria-label={t('appContainer.loading')} />
      </Center>
    );
  if (listing.isError && isNotFound(listing.error))
    return (
      <Refusal testId="app-container-error" color="yellow" title={t('appContainer.unknownTitle')}>
        {t('appContainer.unknown', { id })}
      </Refusal>
    );
  if (listing.isError)
    return (
      <Refusal testId="app-container-error" color="red" title={t('appContainer.errorTitle')}>
        {describeError(t, listing.error)}
      </Refusal>
    );
  const name = listing.data.name;
  if (launch.isError && hasStatus(launch.error, 404)) {
    const mayInstall = ability.can('UPDATE', 'organizations');
    return (
      <Refusal
        testId="app-container-not-installed"
        color="yellow"
        title={t('appContainer.notInstalledTitle', { name })}
        action={
          mayInstall ? (
            <Button component={Link} to={`/store/install/${encodeURIComponent(id)}`}>
              {t('appContainer.install', { name })}
            </Button>
          ) : (
            <Anchor component={Link} to="/store">
              {t('appContainer.toStore')}
            </Anchor>
          )
        }
      >
        {t(mayInstall ? 'appContainer.notInstalled' : 'appContainer.notInstalledAskAdmin', { name })}
      </Refusal>
    );
  }
  if (launch.isError && hasStatus(launch.error, 402))
    return (
      <Refusal
        testId="app-container-overdue"
        color="orange"
        title={t('appContainer.overdueTitle', { name })}
        action={
          <Button component={Link} to="/store/manage">
            {t('appContainer.toInstalled')}
          </Button>
        }
      >
        {t('appContainer.overdue', { name })}
      </Refusal>
    );
  if (launch.isError)
    return (
      <Refusal testId="app-container-error" color="red" title={t('appContainer.errorTitle')}>
        {describeError(t, launch.error)}
      </Refusal>
    );
  if (!launch.isSuccess) return null;
  return <AppFrame key={launch.data.id} app={launch.data} />;
}

type RefusalProps = {
  testId: string;
  color: string;
  title: string;
  children: ReactNode;
  action?: ReactNode;
};

/** Why the app does not run here, what to do about it, and the way back. */
function Refusal({ testId, color, title, children, action }: RefusalProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" maw={640} data-testid={testId}>
      <Alert color={color} title={title}>
        <Text size="sm">{children}</Text>
      </Alert>
      <Group gap="md">
        {action}
        <Anchor component={Link} to="/home">
          {t('appContainer.backHome')}
        </Anchor>
      </Group>
    </Stack>
  );
}
