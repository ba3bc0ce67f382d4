import { Code, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, type PageRequest } from '../../shared/ui/DataTable.tsx';
import {
  fetchIssuedLicenses,
  type IssuedListRequest,
  LICENSE_STATUSES,
  type License,
  type LicenseStatus,
} from './api.ts';
import { formatCount, formatDate } from './format.ts';
import { AutorenewSwitch, LicenseRowActions, LicenseStatusBadge } from './LicenseActions.tsx';
import { DEALER_KEY } from './query-keys.ts';

type StatusFilter = 'all' | LicenseStatus;

/** The licences the dealer issued, 200 a page at most (spec 9), newest first unless sorted otherwise. */
export function IssuedLicensesTable() {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [request, setRequest] = useState<IssuedListRequest>({ page: 0, pageSize: 50 });

  const licenses = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'issued', request],
    queryFn: async ({ signal }) => fetchIssuedLicenses(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });
  const onRequestChange = useCallback(
    (next: PageRequest) => setRequest((current) => ({ ...current, ...next })),
    [],
  );

  const columns = useMemo<ColumnDef<License>[]>(
    () => [
      {
        id: 'licenseCode',
        accessorKey: 'licenseCode',
        header: t('dealer.licenses.columns.code'),
        cell: ({ row }) => <Code style={{ whiteSpace: 'nowrap' }}>{row.original.licenseCode}</Code>,
      },
      {
        id: 'client',
        header: t('dealer.licenses.columns.client'),
        enableSorting: false,
        cell: ({ row }) => row.original.organizationName,
      },
      {
        id: 'product',
        header: t('dealer.licenses.columns.product'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm">
            {row.original.product.name}{' '}
            <Text span size="xs" c="dimmed">
              {t('dealer.licenses.version', { version: row.original.productVersion })}
            </Text>
          </Text>
        ),
      },
      {
        id: 'quantity',
        header: t('dealer.licenses.columns.quantity'),
        enableSorting: false,
        cell: ({ row }) => formatCount(row.original.quantity, i18n.language),
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: t('dealer.licenses.columns.status'),
        cell: ({ row }) => <LicenseStatusBadge status={row.original.status} />,
      },
      {
        id: 'expiresAt',
        accessorKey: 'expiresAt',
        header: t('dealer.licenses.columns.expiresAt'),
        cell: ({ row }) => formatDate(row.original.expiresAt, i18n.language),
      },
      {
        id: 'autorenew',
        header: t('dealer.licenses.columns.autorenew'),
        enableSorting: false,
        cell: ({ row }) => <AutorenewSwitch license={row.original} />,
      },
      {
        id: 'actions',
        header: () => <VisuallyHidden>{t('dealer.licenses.columns.actions')}</VisuallyHidden>,
        enableSorting: false,
        cell: ({ row }) => <LicenseRowActions license={row.original} />,
      },
    ],
    [t, i18n.language],
  );

  const filtered = Boolean(request.search || request.status);
  return (
    <DataTable<License>
      label={t('dealer.licenses.tableLabel')}
      columns={columns}
      request={request}
      onRequestChange={onRequestChange}
      query={licenses}
      rowId={(license) => license.id}
      toolbar={
        <SegmentedControl
          aria-label={t('dealer.licenses.filter')}
          size="xs"
          value={request.status ?? 'all'}
          onChange={(value) => {
            const status = value as StatusFilter;
            setRequest((current) => ({ ...current, page: 0, status: status === 'all' ? undefined : status }));
          }}
          data={[
            { value: 'all', label: t('dealer.licenses.all') },
            ...LICENSE_STATUSES.map((status) => ({ value: status, label: t(`dealer.status.${status}`) })),
          ]}
        />
      }
      empty={
        <Stack gap={4} align="center">
          <Text fw={500}>
            {filtered ? t('dealer.licenses.empty.noMatch') : t('dealer.licenses.empty.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {filtered ? t('dealer.licenses.empty.noMatchHint') : t('dealer.licenses.empty.hint')}
          </Text>
        </Stack>
      }
    />
  );
}
