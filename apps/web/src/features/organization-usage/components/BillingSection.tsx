import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { confirmDanger } from '../../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../../shared/ui/DataTable.tsx';
import {
  fetchInvoices,
  fetchTransactions,
  type Invoice,
  revokeTransaction,
  type Transaction,
  usageKeys,
} from '../api.ts';
import { useFormats } from '../format.ts';
import { colorOf, INVOICE_COLORS, TRANSACTION_COLORS } from '../status-colors.ts';
import { ExecutionsModal } from './ExecutionsModal.tsx';

/** The organization's invoices and preauthorized transactions (with their executions, revoke and retry payment). */
export function BillingSection({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" component="section" aria-labelledby="billing-heading">
      <Title order={2} size="h4" id="billing-heading">
        {t('organizationUsage.billing.heading')}
      </Title>
      <InvoicesTable />
      <TransactionsTable canManage={canManage} />
    </Stack>
  );
}

function InvoicesTable() {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const [request, setRequest] = usePageRequest({ pageSize: 20 });
  const paging = { page: request.page, pageSize: request.pageSize };
  const invoices = useQuery({
    queryKey: usageKeys.invoices(organization.id, paging),
    queryFn: async ({ signal }) => fetchInvoices(await token(), organization.id, paging, signal),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<ColumnDef<Invoice>[]>(
    () => [
      {
        id: 'number',
        header: t('organizationUsage.billing.invoices.columns.number'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{row.original.number}</Text>,
      },
      {
        id: 'date',
        header: t('organizationUsage.billing.invoices.columns.date'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{format.date(row.original.createdAt)}</Text>,
      },
      {
        id: 'description',
        header: t('organizationUsage.billing.invoices.columns.description'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{row.original.description}</Text>,
      },
      {
        id: 'amount',
        header: t('organizationUsage.billing.invoices.columns.amount'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text
            size="sm"
            ta="right"
            style={{ fontVariantNumeric: 'tabular-nums' }}
            data-testid="invoice-amount"
          >
            {format.money(row.original.amountMinor, row.original.currency)}
          </Text>
        ),
      },
      {
        id: 'status',
        header: t('organizationUsage.status'),
        enableSorting: false,
        cell: ({ row }) => (
          <Badge variant="light" color={colorOf(INVOICE_COLORS, row.original.status)}>
            {t(`organizationUsage.billing.invoices.status.${row.original.status}`)}
          </Badge>
        ),
      },
      {
        id: 'paidAt',
        header: t('organizationUsage.billing.invoices.columns.paidAt'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{format.date(row.original.paidAt)}</Text>,
      },
    ],
    [t, format],
  );
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('organizationUsage.billing.invoices.heading')}
      </Title>
      <DataTable<Invoice>
        label={t('organizationUsage.billing.invoices.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={invoices}
        rowId={(invoice) => invoice.id}
        searchable={false}
        empty={
          <Text size="sm" c="dimmed">
            {t('organizationUsage.billing.invoices.empty')}
          </Text>
        }
      />
    </Stack>
  );
}

function TransactionsTable({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [request, setRequest] = usePageRequest({ pageSize: 20 });
  const [open, setOpen] = useState<Transaction | null>(null);
  const paging = { page: request.page, pageSize: request.pageSize };
  const transactions = useQuery({
    queryKey: usageKeys.transactions(organization.id, paging),
    queryFn: async ({ signal }) => fetchTransactions(await token(), organization.id, paging, signal),
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<ColumnDef<Transaction>[]>(() => {
    const revoke = (transaction: Transaction) =>
      confirmDanger({
        title: t('organizationUsage.billing.transactions.revokeTitle'),
        message: t('organizationUsage.billing.transactions.revokeMessage', {
          description: transaction.description,
        }),
        confirmLabel: t('organizationUsage.billing.transactions.revoke'),
        onConfirm: async () => {
          try {
            await revokeTransaction(await token(), organization.id, transaction.id);
            notifications.show({
              color: 'green',
              message: t('organizationUsage.billing.transactions.revoked', {
                description: transaction.description,
              }),
            });
          } catch (error) {
            notifications.show({
              color: 'red',
              title: t('organizationUsage.billing.transactions.revokeFailed'),
              message: describeError(t, error),
            });
          } finally {
            await queryClient.invalidateQueries({ queryKey: usageKeys.all(organization.id) });
          }
        },
      });
    return [
      {
        id: 'created',
        header: t('organizationUsage.billing.transactions.columns.created'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{format.date(row.original.createdAt)}</Text>,
      },
      {
        id: 'description',
        header: t('organizationUsage.billing.transactions.columns.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.description}</Text>
            <Text size="xs" c="dimmed">
              {row.original.purpose}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'maxAmount',
        header: t('organizationUsage.billing.transactions.columns.maxAmount'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {format.money(row.original.maxAmountMinor, row.original.currency)}
          </Text>
        ),
      },
      {
        id: 'executions',
        header: t('organizationUsage.billing.transactions.columns.executions'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm">
            {t('organizationUsage.billing.transactions.executionsOf', {
              used: format.count(row.original.executions),
              max: format.count(row.original.maxExecutions),
            })}
          </Text>
        ),
      },
      {
        id: 'status',
        header: t('organizationUsage.status'),
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={2} align="flex-start">
            <Badge variant="light" color={colorOf(TRANSACTION_COLORS, row.original.status)}>
              {t(`organizationUsage.billing.transactions.status.${row.original.status}`)}
            </Badge>
            {row.original.result !== 'AUTHORIZED' && (
              <Text size="xs" c="dimmed">
                {t(`organizationUsage.billing.transactions.result.${row.original.result}`)}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'actions',
        header: t('organizationUsage.billing.transactions.columns.actions'),
        enableSorting: false,
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => setOpen(row.original)}
              aria-label={t('organizationUsage.billing.transactions.showExecutionsOf', {
                description: row.original.description,
              })}
            >
              {t('organizationUsage.billing.transactions.showExecutions')}
            </Button>
            {canManage && row.original.status === 'ACTIVE' && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => revoke(row.original)}
                aria-label={t('organizationUsage.billing.transactions.revokeLabel', {
                  description: row.original.description,
                })}
              >
                {t('organizationUsage.billing.transactions.revoke')}
              </Button>
            )}
          </Group>
        ),
      },
    ];
  }, [t, format, canManage, token, organization.id, queryClient]);

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('organizationUsage.billing.transactions.heading')}
      </Title>
      <DataTable<Transaction>
        label={t('organizationUsage.billing.transactions.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={transactions}
        rowId={(transaction) => transaction.id}
        searchable={false}
        empty={
          <Text size="sm" c="dimmed">
            {t('organizationUsage.billing.transactions.empty')}
          </Text>
        }
      />
      {open && <ExecutionsModal transaction={open} canManage={canManage} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
