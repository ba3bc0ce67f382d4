import { Badge, Button, Divider, Group as Row, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { VpnTabs } from '../vpn-devices/VpnTabs.tsx';
import { domainOf, fetchGatewayOptions, VPN_GATEWAY_OPTIONS_KEY } from '../vpn-endpoints/api.ts';
import { ApplicationFormModal } from './ApplicationFormModal.tsx';
import {
  type Application,
  deleteApplication,
  fetchApplications,
  fetchProfiles,
  VPN_APPLICATIONS_KEY,
  VPN_PROFILES_KEY,
} from './api.ts';
import { clientOsList, isWebProtocol, OS_LABELS } from './application-form.ts';
import { ListEmpty } from './ListEmpty.tsx';
import { localPage } from './local-page.ts';
import { vpnAppsFailure } from './messages.ts';
import { ShortcutsSection } from './ShortcutsSection.tsx';

/** Spec 2 /vpn/applications: the applications (actions) of the organization, and the user's own shortcuts. */
export default function ApplicationsPage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const domain = domainOf(organization);
  const [request, setRequest] = usePageRequest();
  const [editing, setEditing] = useState<Application | 'new' | null>(null);
  const canCreate = ability.can('CREATE', 'devices');
  const canUpdate = ability.can('UPDATE', 'devices');
  const canDelete = ability.can('DELETE', 'devices');

  const applications = useQuery({
    queryKey: [VPN_APPLICATIONS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchApplications(await token(), domain, signal),
  });
  const profiles = useQuery({
    queryKey: [VPN_PROFILES_KEY, organization.id],
    queryFn: async ({ signal }) => fetchProfiles(await token(), domain, signal),
  });
  const gateways = useQuery({
    queryKey: [VPN_GATEWAY_OPTIONS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchGatewayOptions(await token(), domain, signal),
  });
  const profileItems = useMemo(() => profiles.data?.items ?? [], [profiles.data]);
  const applicationItems = useMemo(() => applications.data?.items ?? [], [applications.data]);

  const page = useMemo(
    () =>
      applications.data &&
      localPage(
        applications.data.items,
        request,
        (application) => [application.name, application.description, application.protocol],
        (application) => application.name,
      ),
    [applications.data, request],
  );

  const columns = useMemo<ColumnDef<Application>[]>(() => {
    const profileName = new Map(profileItems.map((profile) => [profile.id, profile]));
    const remove = async (application: Application) => {
      try {
        await deleteApplication(await token(), domain, application.id);
        notifications.show({
          color: 'green',
          message: t('vpnApplications.deleted', { name: application.name }),
        });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('vpnApplications.deleteFailed'),
          message: vpnAppsFailure(t, 'application', error),
        });
      } finally {
        await queryClient.invalidateQueries({ queryKey: [VPN_APPLICATIONS_KEY, organization.id] });
        await queryClient.invalidateQueries({ queryKey: [VPN_PROFILES_KEY, organization.id] });
      }
    };
    return [
      {
        id: 'name',
        header: t('vpnApplications.fields.name'),
        enableSorting: false,
        cell: ({ row }) => <Text fw={500}>{row.original.name}</Text>,
      },
      {
        id: 'profile',
        header: t('vpnApplications.fields.profile'),
        enableSorting: false,
        cell: ({ row }) => {
          const profile = row.original.profileId ? profileName.get(row.original.profileId) : undefined;
          if (!profile)
            return (
              <Text size="sm" c="dimmed">
                {t('vpnApplications.noProfile')}
              </Text>
            );
          return (
            <Row gap={6} wrap="nowrap">
              <Text size="sm">{profile.name}</Text>
              {profile.otpRequired && (
                <Badge size="xs" color="orange" variant="light">
                  {t('vpnApplications.profiles.otpRequired')}
                </Badge>
              )}
            </Row>
          );
        },
      },
      {
        id: 'protocol',
        header: t('vpnApplications.fields.protocol'),
        enableSorting: false,
        cell: ({ row }) => row.original.protocol,
      },
      {
        id: 'port',
        header: t('vpnApplications.fields.port'),
        enableSorting: false,
        cell: ({ row }) => row.original.port,
      },
      {
        id: 'path',
        header: t('vpnApplications.fields.path'),
        enableSorting: false,
        cell: ({ row }) =>
          isWebProtocol(row.original.protocol) ? <Text ff="monospace">{row.original.path || '/'}</Text> : '—',
      },
      {
        id: 'clientOs',
        header: t('vpnApplications.fields.clientOs'),
        enableSorting: false,
        cell: ({ row }) => {
          const systems = clientOsList(row.original.clientOs);
          if (systems.length === 0)
            return (
              <Text size="sm" c="dimmed">
                {t('vpnApplications.allSystems')}
              </Text>
            );
          return (
            <Row gap={4}>
              {systems.map((os) => (
                <Badge key={os} size="sm" variant="outline">
                  {OS_LABELS[os]}
                </Badge>
              ))}
            </Row>
          );
        },
      },
      {
        id: 'description',
        header: t('vpnApplications.fields.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description}
          </Text>
        ),
      },
      actionsColumn(t('vpnApplications.rowActions'), (application) => (
        <>
          {canUpdate && (
            <RowAction
              label={t('vpnApplications.edit', { name: application.name })}
              onClick={() => setEditing(application)}
            >
              {t('vpnApplications.editShort')}
            </RowAction>
          )}
          {canDelete && (
            <RowAction
              danger
              label={t('vpnApplications.delete', { name: application.name })}
              onClick={() =>
                confirmDanger({
                  title: t('vpnApplications.deleteTitle'),
                  message: t('vpnApplications.deleteConfirm', { name: application.name }),
                  confirmLabel: t('vpnApplications.deleteShort'),
                  onConfirm: () => remove(application),
                })
              }
            >
              {t('vpnApplications.deleteShort')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, token, domain, organization.id, queryClient, canUpdate, canDelete, profileItems]);

  return (
    <Stack gap="md" data-testid="vpn-applications-page">
      <VpnTabs />
      <div>
        <Title order={1} size="h3">
          {t('vpnApplications.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('vpnApplications.intro')}
        </Text>
      </div>
      <DataTable<Application>
        label={t('vpnApplications.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={{
          data: page,
          isFetching: applications.isFetching,
          error: applications.error,
          refetch: applications.refetch,
        }}
        rowId={(application) => application.id}
        toolbar={
          canCreate && (
            <Button onClick={() => setEditing('new')} data-testid="create-application">
              {t('vpnApplications.create')}
            </Button>
          )
        }
        empty={
          <ListEmpty
            searching={Boolean(request.search)}
            title={t('vpnApplications.empty.title')}
            createHint={t('vpnApplications.empty.createHint')}
            canCreate={canCreate}
          />
        }
      />
      <Divider />
      <ShortcutsSection gateways={gateways.data ?? []} applications={applicationItems} />
      <ApplicationFormModal application={editing} profiles={profileItems} onClose={() => setEditing(null)} />
    </Stack>
  );
}
