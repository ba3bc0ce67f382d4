import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';
import { ORGANIZATIONS_QUERY } from '../../app/shell/OrganizationSwitcher.tsx';
import { PlainLayout } from '../../app/shell/PlainLayout.tsx';
import { destinationAfterSelection, findOrganization } from '../../auth/organization-entry.ts';
import type { EntryFailure } from '../../auth/organization-session.ts';
import type { Organization } from '../../auth/organizations.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { MyInvitations } from './MyInvitations.tsx';
import { type OrganizationRow, organizationRows } from './organization-rows.ts';
import classes from './selector.module.css';

/** Spec 4: the organization selector (query redirectTo and org). */
export default function OrganizationSelectorPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const { organizations, session } = currentPortal();
  const { failure } = useSyncExternalStore(organizations.subscribe, organizations.getState);
  const [query, setQuery] = useState('');
  const [entering, setEntering] = useState<string | undefined>();
  const list = useQuery({
    queryKey: ORGANIZATIONS_QUERY,
    queryFn: () => organizations.organizations({ reload: true }),
  });
  const named = new URLSearchParams(location.search).get('org');
  const unknownNamed = named && list.data && !findOrganization(list.data, named) ? named : undefined;

  const enter = async (organization: Organization) => {
    setEntering(organization.id);
    try {
      await organizations.enter(organization);
      await navigate(destinationAfterSelection(location.search), { replace: true });
    } catch {
      // The login error is in the organization state and shows above the list.
    } finally {
      setEntering(undefined);
    }
  };

  return (
    <PlainLayout>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('organization.chooseTitle')}
        </Title>
        {failure && <EntryFailureAlert failure={failure} onClose={() => organizations.dismissFailure()} />}
        {unknownNamed && (
          <Alert color="yellow" data-testid="unknown-organization">
            {t('organization.unknownNamed', { org: unknownNamed })}
          </Alert>
        )}
        <MyInvitations />
        {list.isPending && (
          <Group gap="sm" aria-busy="true">
            <Loader size="sm" />
            <Text c="dimmed">{t('organization.loading')}</Text>
          </Group>
        )}
        {list.isError && (
          <LoadFailed
            title={t('organization.loadFailed')}
            message={describeError(t, list.error)}
            onRetry={() => void list.refetch()}
          />
        )}
        {list.data && list.data.length === 0 && (
          <Card withBorder data-testid="no-organizations">
            <Stack gap="xs" align="flex-start">
              <Text fw={600}>{t('organization.emptyTitle')}</Text>
              <Text size="sm" c="dimmed">
                {t('organization.emptyBody')}
              </Text>
              <Button variant="light" onClick={() => void session.signOut()}>
                {t('user.signOut')}
              </Button>
            </Stack>
          </Card>
        )}
        {list.data && list.data.length > 0 && (
          <>
            <TextInput
              label={t('organization.searchLabel')}
              placeholder={t('organization.searchPlaceholder')}
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              type="search"
              data-autofocus
            />
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('organization.count', { count: organizationRows(list.data, query).length })}
            </Text>
            <OrganizationList
              rows={organizationRows(list.data, query)}
              query={query}
              entering={entering}
              lastEntered={organizations.lastEntered()}
              onEnter={(organization) => void enter(organization)}
            />
          </>
        )}
      </Stack>
    </PlainLayout>
  );
}

function EntryFailureAlert({ failure, onClose }: { failure: EntryFailure; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" withCloseButton closeButtonLabel={t('common.close')} onClose={onClose}>
      <Text size="sm" role="alert" data-testid="login-error">
        {failure.kind === 'noPermissions'
          ? t('organization.noPermissions', { id: failure.organizationId })
          : t('organization.entryFailed', { message: failure.message })}
      </Text>
    </Alert>
  );
}

type ListProps = {
  rows: OrganizationRow[];
  query: string;
  entering: string | undefined;
  /** The organization entered last: preselected (marked and focused, Enter enters it), never entered by itself. */
  lastEntered: string | undefined;
  onEnter: (organization: Organization) => void;
};

function OrganizationList({ rows, query, entering, lastEntered, onEnter }: ListProps) {
  const { t } = useTranslation();
  const preselected = useRef<HTMLButtonElement>(null);
  useEffect(() => preselected.current?.focus(), []);
  if (rows.length === 0) {
    return <Text c="dimmed">{t('organization.noMatch', { query })}</Text>;
  }
  return (
    <Card withBorder p={0}>
      <ul className={classes.list} data-testid="organizations">
        {rows.map(({ organization, depth, parentName }) => (
          <li key={organization.id}>
            <UnstyledButton
              className={classes.row}
              style={{ paddingLeft: 16 + depth * 24 }}
              onClick={() => onEnter(organization)}
              disabled={entering !== undefined}
              ref={organization.id === lastEntered ? preselected : undefined}
              data-last-used={organization.id === lastEntered || undefined}
              data-testid="organization"
              data-organization-id={organization.id}
              data-resource-id={organization.resourceId}
            >
              <Stack gap={2} miw={0}>
                <Text fw={600} truncate>
                  {organization.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {parentName
                    ? t('organization.subOrganizationOf', { parent: parentName, id: organization.resourceId })
                    : organization.resourceId}
                </Text>
              </Stack>
              <Group gap={6} wrap="nowrap">
                {organization.id === lastEntered && (
                  <Badge variant="outline" color="gray">
                    {t('organization.lastUsed')}
                  </Badge>
                )}
                {organization.iotEnabled && (
                  <Badge variant="light" color="teal" title={t('organization.iotTitle')}>
                    {t('organization.iot')}
                  </Badge>
                )}
                {organization.vpnEnabled && (
                  <Badge variant="light" color="indigo" title={t('organization.vpnTitle')}>
                    {t('organization.vpn')}
                  </Badge>
                )}
                {entering === organization.id && <Loader size="xs" aria-label={t('organization.entering')} />}
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </ul>
    </Card>
  );
}
