import { Badge, Button, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { GATEWAYS_KEY } from '../vpn-devices/query-keys.ts';
import { VpnTabs } from '../vpn-devices/VpnTabs.tsx';
import { domainOf } from '../vpn-endpoints/api.ts';
import { deleteProfile, fetchProfiles, type Profile, VPN_APPLICATIONS_KEY, VPN_PROFILES_KEY } from './api.ts';
import { ListEmpty } from './ListEmpty.tsx';
import { localPage } from './local-page.ts';
import { profileDeleteFailure } from './messages.ts';
import { ProfileFormModal } from './ProfileFormModal.tsx';

/** Spec 2 /vpn/profiles: the application profiles of the organization (which may require a one-time password). */
export default function ProfilesPage() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const domain = domainOf(organization);
  const [request, setRequest] = usePageRequest();
  const [editing, setEditing] = useState<Profile | 'new' | null>(null);
  const canCreate = ability.can('CREATE', 'devices');
  const canUpdate = ability.can('UPDATE', 'devices');
  const canDelete = ability.can('DELETE', 'devices');

  const profiles = useQuery({
    queryKey: [VPN_PROFILES_KEY, organization.id],
    queryFn: async ({ signal }) => fetchProfiles(await token(), domain, signal),
  });
  const page = useMemo(
    () =>
      profiles.data &&
      localPage(
        profiles.data.items,
        request,
        (profile) => [profile.name, profile.description],
        (profile) => profile.name,
      ),
    [profiles.data, request],
  );

  const columns = useMemo<ColumnDef<Profile>[]>(() => {
    const count = new Intl.NumberFormat(i18n.language);
    const remove = async (profile: Profile) => {
      try {
        await deleteProfile(await token(), domain, profile.id);
        notifications.show({
          color: 'green',
          message: t('vpnApplications.profiles.deleted', { name: profile.name }),
        });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('vpnApplications.profiles.deleteFailed'),
          message: profileDeleteFailure(t, error),
        });
      } finally {
        await queryClient.invalidateQueries({ queryKey: [VPN_PROFILES_KEY, organization.id] });
        await queryClient.invalidateQueries({ queryKey: [VPN_APPLICATIONS_KEY, organization.id] });
        await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
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
        id: 'description',
        header: t('vpnApplications.fields.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description}
          </Text>
        ),
      },
      {
        id: 'otp',
        header: t('vpnApplications.profiles.columns.otp'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.otpRequired ? (
            <Badge color="orange" variant="light">
              {t('vpnApplications.profiles.otpRequired')}
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              {t('vpnApplications.profiles.otpNotRequired')}
            </Text>
          ),
      },
      {
        id: 'applications',
        header: t('vpnApplications.profiles.columns.applications'),
        enableSorting: false,
        cell: ({ row }) => count.format(row.original.actionCount),
      },
      {
        id: 'gateways',
        header: t('vpnApplications.profiles.columns.gateways'),
        enableSorting: false,
        cell: ({ row }) => count.format(row.original.gatewayCount),
      },
      actionsColumn(t('vpnApplications.rowActions'), (profile) => (
        <>
          {canUpdate && (
            <RowAction
              label={t('vpnApplications.profiles.edit', { name: profile.name })}
              onClick={() => setEditing(profile)}
            >
              {t('vpnApplications.editShort')}
            </RowAction>
          )}
          {canDelete && (
            <RowAction
              danger
              label={t('vpnApplications.profiles.delete', { name: profile.name })}
              onClick={() => {
                if (profile.gatewayCount > 0) {
                  notifications.show({
                    color: 'orange',
                    title: t('vpnApplications.profiles.deleteTitle'),
                    message: t('vpnApplications.profiles.inUse', {
                      name: profile.name,
                      count: profile.gatewayCount,
                    }),
                  });
                  return;
                }
                confirmDanger({
                  title: t('vpnApplications.profiles.deleteTitle'),
                  message: t('vpnApplications.profiles.deleteConfirm', { name: profile.name }),
                  confirmLabel: t('vpnApplications.deleteShort'),
                  onConfirm: () => remove(profile),
                });
              }}
            >
              {t('vpnApplications.deleteShort')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, i18n.language, token, domain, organization.id, queryClient, canUpdate, canDelete]);

  return (
    <Stack gap="md" data-testid="vpn-profiles-page">
      <VpnTabs />
      <div>
        <Title order={1} size="h3">
          {t('vpnApplications.profiles.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('vpnApplications.profiles.intro')}
        </Text>
      </div>
      <DataTable<Profile>
        label={t('vpnApplications.profiles.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={{
          data: page,
          isFetching: profiles.isFetching,
          error: profiles.error,
          refetch: profiles.refetch,
        }}
        rowId={(profile) => profile.id}
        toolbar={
          canCreate && (
            <Button onClick={() => setEditing('new')} data-testid="create-profile">
              {t('vpnApplications.profiles.create')}
            </Button>
          )
        }
        empty={
          <ListEmpty
            searching={Boolean(request.search)}
            title={t('vpnApplications.profiles.empty')}
            createHint={t('vpnApplications.profiles.emptyCreateHint')}
            canCreate={canCreate}
          />
        }
      />
      <ProfileFormModal profile={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
