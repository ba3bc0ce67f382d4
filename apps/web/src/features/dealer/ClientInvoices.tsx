import {
  Badge,
  Button,
  Loader,
  Pagination,
  Group as Row,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { formatMoney } from '../../shared/money/money.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type Client, fetchClientInvoices, type Invoice, markInvoicePaid } from './api.ts';
import { formatDate, INVOICE_STATUS_COLOR } from './format.ts';
import { useRefreshDealer } from './LicenseActions.tsx';
import { dealerFailure } from './messages.ts';
import { DEALER_KEY } from './query-keys.ts';

const PAGE_SIZE = 20;

/** The client's invoices (the default payment provider's), newest first; an OPEN one can be marked paid. */
export function ClientInvoices({ client }: { client: Client }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const [page, setPage] = useState(0);
  const canMarkPaid = ability.can('UPDATE', 'products');

  const invoices = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'invoices', client.id, page],
    queryFn: async ({ signal }) =>
      fetchClientInvoices(
        await token(),
        organization.id,
        { page, pageSize: PAGE_SIZE, organizationId: client.id },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const markPaid = async (invoice: Invoice) => {
    try {
      await markInvoicePaid(await token(), organization.id, invoice.id);
      notifications.show({
        color: 'green',
        message: t('dealer.invoices.paidDone', { number: invoice.number }),
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('dealer.invoices.paidFailed'),
        message: dealerFailure(t, 'markPaid', error),
      });
    } finally {
      await refresh();
    }
  };

  if (invoices.isPending)
    return (
      <Row gap="sm" aria-busy="true">
        <Loader size="sm" />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Row>
    );
  if (invoices.isError)
    return (
      <LoadFailed
        title={t('dealer.invoices.loadFailed')}
        message={describeError(t, invoices.error)}
        onRetry={() => void invoices.refetch()}
      />
    );
  const { items, total } = invoices.data;
  if (items.length === 0)
    return (
      <Stack gap={4} align="center" py="lg" data-testid="client-invoices-empty">
        <Text fw={500}>{t('dealer.invoices.empty')}</Text>
        <Text size="sm" c="dimmed">
          {t('dealer.invoices.emptyHint')}
        </Text>
      </Stack>
    );
  const pages = Math.ceil(total / PAGE_SIZE);

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={600}>
        <Table aria-label={t('dealer.invoices.tableLabel', { name: client.name })} highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dealer.invoices.columns.number')}</Table.Th>
              <Table.Th>{t('dealer.invoices.columns.description')}</Table.Th>
              <Table.Th ta="right">{t('dealer.invoices.columns.amount')}</Table.Th>
              <Table.Th>{t('dealer.invoices.columns.status')}</Table.Th>
              <Table.Th>{t('dealer.invoices.columns.createdAt')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('dealer.invoices.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((invoice) => (
              <Table.Tr key={invoice.id} data-invoice={invoice.number}>
                <Table.Td>{invoice.number}</Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2} maw={260}>
                    {invoice.description}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(invoice.amountMinor, invoice.currency, i18n.language)}
                </Table.Td>
                <Table.Td>
                  <Badge color={INVOICE_STATUS_COLOR[invoice.status]} variant="light" tt="none">
                    {t(`dealer.invoices.status.${invoice.status}`)}
                  </Badge>
                  {invoice.paidAt && (
                    <Text size="xs" c="dimmed">
                      {formatDate(invoice.paidAt, i18n.language)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{formatDate(invoice.createdAt, i18n.language)}</Table.Td>
                <Table.Td>
                  {canMarkPaid && invoice.status === 'OPEN' && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={t('dealer.invoices.markPaidLabel', { number: invoice.number })}
                      onClick={() =>
                        confirmDanger({
                          title: t('dealer.invoices.markPaidTitle'),
                          message: t('dealer.invoices.markPaidConfirm', {
                            number: invoice.number,
                            amount: formatMoney(invoice.amountMinor, invoice.currency, i18n.language),
                            name: client.name,
                          }),
                          confirmLabel: t('dealer.invoices.markPaid'),
                          color: 'orange',
                          onConfirm: () => markPaid(invoice),
                        })
                      }
                    >
                      {t('dealer.invoices.markPaid')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page + 1}
          onChange={(next) => setPage(next - 1)}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
        />
      )}
    </Stack>
  );
}
