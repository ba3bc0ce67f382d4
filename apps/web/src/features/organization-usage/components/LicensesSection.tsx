import { Badge, Button, Group, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { confirmDanger } from '../../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../../shared/ui/DataTable.tsx';
import { fetchLicenses, type License, renewLicense, setAutorenew, usageKeys } from '../api.ts';
import { useFormats } from '../format.ts';
import { colorOf, LICENSE_COLORS } from '../status-colors.ts';
import { ActivateLicenseCard } from './ActivateLicenseCard.tsx';
import { LicenseCounts } from './LicenseCounts.tsx';

/** Spec 9: licences are listed 200 a page, newest first. */
const LICENSE_PAGE_SIZE = 200;

/** The organization's licences (code, product, quantity, status, expiry, automatic renewal) and code activation. */
export function LicensesSection({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [request, setRequest] = usePageRequest({ pageSize: LICENSE_PAGE_SIZE });
  const paging = { page: request.page, pageSize: request.pageSize };
  const licenses = useQuery({
    queryKey: [...usageKeys.licenses(organization.id, paging), request.search],
    queryFn: async ({ signal }) =>
      fetchLicenses(
        await token(),
        organization.id,
        { ...paging, ...(request.search && { search: request.search }) },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

  const autorenew = useMutation({
    mutationFn: async ({ license, on }: { license: License; on: boolean }) =>
      setAutorenew(await token(), organization.id, license.id, on),
    onSuccess: (_saved, { license, on }) =>
      notifications.show({
        color: 'green',
        message: t(
          on
            ? 'organizationUsage.resources.licenses.autorenewOn'
            : 'organizationUsage.resources.licenses.autorenewOff',
          {
            code: license.licenseCode,
          },
        ),
      }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('organizationUsage.resources.licenses.autorenewFailed'),
        message: describeError(t, error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usageKeys.all(organization.id) }),
  });

  const columns = useMemo<ColumnDef<License>[]>(() => {
    const renew = (license: License) =>
      confirmDanger({
        title: t('organizationUsage.resources.licenses.renewTitle'),
        message: t('organizationUsage.resources.licenses.renewMessage', {
          code: license.licenseCode,
          days: format.count(license.grant.termDays),
          price: format.money(license.termPriceMinor, license.grant.currency),
          name: organization.name,
        }),
        confirmLabel: t('organizationUsage.resources.licenses.renew'),
        color: 'orange',
        onConfirm: async () => {
          try {
            const renewal = await renewLicense(await token(), organization.id, license.id);
            notifications.show({
              color: 'green',
              message: t('organizationUsage.resources.licenses.renewed', {
                code: license.licenseCode,
                date: format.date(renewal.license.expiresAt),
                price: renewal.charge
                  ? format.money(renewal.charge.amountMinor, renewal.charge.currency)
                  : format.money(0, license.grant.currency),
              }),
            });
          } catch (error) {
            notifications.show({
              color: 'red',
              title: t('organizationUsage.resources.licenses.renewFailed'),
              message: describeError(t, error),
            });
          } finally {
            await queryClient.invalidateQueries({ queryKey: usageKeys.all(organization.id) });
          }
        },
      });
    return [
      {
        id: 'code',
        header: t('organizationUsage.resources.licenses.columns.code'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" ff="monospace">
            {row.original.licenseCode}
          </Text>
        ),
      },
      {
        id: 'product',
        header: t('organizationUsage.resources.licenses.columns.product'),
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.product.name}</Text>
            <Text size="xs" c="dimmed">
              {row.original.product.code}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'quantity',
        header: t('organizationUsage.resources.licenses.columns.quantity'),
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{format.count(row.original.quantity)}</Text>
            <Text size="xs" c="dimmed">
              {t('organizationUsage.resources.licenses.grants', {
                amount: format.count(row.original.allowance),
                resource: t(`organizationUsage.resourceTypes.${row.original.product.resourceType}`),
              })}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'status',
        header: t('organizationUsage.status'),
        enableSorting: false,
        cell: ({ row }) => (
          <Badge variant="light" color={colorOf(LICENSE_COLORS, row.original.status)}>
            {t(`organizationUsage.resources.licenses.status.${row.original.status}`)}
          </Badge>
        ),
      },
      {
        id: 'expires',
        header: t('organizationUsage.resources.licenses.columns.expires'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{format.date(row.original.expiresAt)}</Text>,
      },
      {
        id: 'autorenew',
        header: t('organizationUsage.resources.licenses.columns.autorenew'),
        enableSorting: false,
        cell: ({ row }) => {
          const license = row.original;
          const changeable = canManage && (license.status === 'ACTIVE' || license.status === 'ISSUED');
          if (!changeable)
            return (
              <Text size="sm">
                {t(
                  license.autorenew
                    ? 'organizationUsage.resources.licenses.on'
                    : 'organizationUsage.resources.licenses.off',
                )}
              </Text>
            );
          const pending = autorenew.isPending && autorenew.variables?.license.id === license.id;
          return (
            <Switch
              checked={pending ? (autorenew.variables?.on ?? license.autorenew) : license.autorenew}
              disabled={pending}
              aria-label={t('organizationUsage.resources.licenses.autorenewLabel', {
                code: license.licenseCode,
              })}
              onChange={(event) => autorenew.mutate({ license, on: event.currentTarget.checked })}
            />
          );
        },
      },
      ...(canManage
        ? [
            {
              id: 'actions',
              header: () => (
                <VisuallyHidden>{t('organizationUsage.resources.licenses.columns.actions')}</VisuallyHidden>
              ),
              enableSorting: false,
              cell: ({ row }) =>
                row.original.status === 'ACTIVE' || row.original.status === 'EXPIRED' ? (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => renew(row.original)}
                    aria-label={t('organizationUsage.resources.licenses.renewLabel', {
                      code: row.original.licenseCode,
                    })}
                  >
                    {t('organizationUsage.resources.licenses.renew')}
                  </Button>
                ) : null,
            } satisfies ColumnDef<License>,
          ]
        : []),
    ];
  }, [t, format, canManage, autorenew, token, organization, queryClient]);

  return (
    <Stack gap="sm" component="section" aria-labelledby="licenses-heading">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4" id="licenses-heading">
          {t('organizationUsage.resources.licenses.heading')}
        </Title>
        <LicenseCounts />
      </Group>
      {canManage && <ActivateLicenseCard />}
      <DataTable<License>
        label={t('organizationUsage.resources.licenses.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={licenses}
        rowId={(license) => license.id}
        empty={
          <Text size="sm" c="dimmed">
            {t('organizationUsage.resources.licenses.empty')}
          </Text>
        }
      />
    </Stack>
  );
}
