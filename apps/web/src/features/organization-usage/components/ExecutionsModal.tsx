import { Badge, Button, Modal, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { type Execution, fetchExecutions, retryExecution, type Transaction, usageKeys } from '../api.ts';
import { NONE, useFormats } from '../format.ts';
import { colorOf, EXECUTION_COLORS, INVOICE_COLORS } from '../status-colors.ts';
import { LoadFailed, Loading } from './states.tsx';

type Props = { transaction: Transaction; canManage: boolean; onClose: () => void };

/** The execution orders of a transaction (what was charged, with its invoice) and "Retry payment" for unpaid ones. */
export function ExecutionsModal({ transaction, canManage, onClose }: Props) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const executions = useQuery({
    queryKey: usageKeys.executions(organization.id, transaction.id),
    queryFn: async ({ signal }) => fetchExecutions(await token(), organization.id, transaction.id, signal),
  });
  const retry = useMutation({
    mutationFn: async (execution: Execution) =>
      retryExecution(await token(), organization.id, transaction.id, execution.n),
    onSuccess: (result) =>
      notifications.show({
        color: result.status === 'FAILED' ? 'orange' : 'green',
        message: t('organizationUsage.billing.executions.retried', {
          n: result.n,
          status: t(`organizationUsage.billing.executions.status.${result.status}`),
        }),
      }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('organizationUsage.billing.executions.retryFailed'),
        message: describeError(t, error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usageKeys.all(organization.id) }),
  });
  const retryable = (execution: Execution) =>
    canManage &&
    transaction.status === 'ACTIVE' &&
    (execution.status === 'FAILED' || execution.status === 'PENDING');

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('organizationUsage.billing.executions.title', { description: transaction.description })}
    >
      {executions.isPending && <Loading label={t('organizationUsage.resources.usage.loading')} />}
      {executions.isError && (
        <LoadFailed
          title={t('organizationUsage.billing.executions.loadFailed')}
          error={executions.error}
          onRetry={executions.refetch}
        />
      )}
      {executions.data && executions.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('organizationUsage.billing.executions.empty')}
        </Text>
      )}
      {executions.data && executions.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('organizationUsage.billing.executions.tableLabel')} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('organizationUsage.billing.executions.columns.n')}</Table.Th>
                <Table.Th>{t('organizationUsage.billing.executions.columns.date')}</Table.Th>
                <Table.Th ta="right">{t('organizationUsage.billing.executions.columns.amount')}</Table.Th>
                <Table.Th>{t('organizationUsage.status')}</Table.Th>
                <Table.Th>{t('organizationUsage.billing.executions.columns.invoice')}</Table.Th>
                <Table.Th>{t('organizationUsage.billing.executions.columns.error')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {executions.data.map((execution) => (
                <Table.Tr key={execution.n}>
                  <Table.Td>{execution.n}</Table.Td>
                  <Table.Td>{format.dateTime(execution.updatedAt)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {format.money(execution.amountMinor, transaction.currency)}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={colorOf(EXECUTION_COLORS, execution.status)}>
                      {t(`organizationUsage.billing.executions.status.${execution.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {execution.invoiceStatus ? (
                      <Badge variant="outline" color={colorOf(INVOICE_COLORS, execution.invoiceStatus)}>
                        {t(`organizationUsage.billing.invoices.status.${execution.invoiceStatus}`)}
                      </Badge>
                    ) : (
                      NONE
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {execution.error ?? NONE}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {retryable(execution) && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        loading={retry.isPending && retry.variables?.n === execution.n}
                        onClick={() => retry.mutate(execution)}
                        aria-label={t('organizationUsage.billing.executions.retryLabel', { n: execution.n })}
                      >
                        {t('organizationUsage.billing.executions.retry')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
