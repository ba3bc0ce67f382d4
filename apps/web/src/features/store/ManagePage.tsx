import {
  ActionIcon,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { formatMoney } from '../../shared/money/money.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type InstalledApp, payNow, storeKeys, uninstall, upgrade } from './api.ts';
import { ChangePlanModal } from './ChangePlanModal.tsx';
import { isFree, planPriceText } from './plans.ts';
import { RescheduleModal } from './RescheduleModal.tsx';
import { StoreTabs } from './StoreTabs.tsx';
import { useInstalledApps } from './use-installed.ts';

const STATUS_COLORS = { ACTIVE: 'green', PAYMENT_DUE: 'orange' } as const;

/**
 * Spec 2 /store/manage: the organization's installed apps with plan, version, payment status and next billing; open,
 * change plan, pay, reschedule, upgrade and delete (UPDATE organizations changes, READ organizations sees).
 */
export default function ManagePage() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const canUpdate = ability.can('UPDATE', 'organizations');
  const queryClient = useQueryClient();
  const installed = useInstalledApps();
  const [planFor, setPlanFor] = useState<InstalledApp | null>(null);
  const [rescheduleFor, setRescheduleFor] = useState<InstalledApp | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  const refresh = () => queryClient.invalidateQueries({ queryKey: storeKeys.installed(organization.id) });

  /** Runs one action of a row, with its success text and its failure title; the table reloads afterwards. */
  const run = async (app: InstalledApp, action: () => Promise<string>, failedKey: string) => {
    setBusy(app.id);
    try {
      const message = await action();
      notifications.show({ color: 'green', message });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t(failedKey, { name: app.name }),
        message: describeError(t, error),
      });
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const pay = (app: InstalledApp) =>
    run(
      app,
      async () => {
        const paid = await payNow(await token(), organization.id, app.id);
        const invoice = paid.lastInvoice;
        if (invoice?.status === 'OPEN')
          return t('store.pay.open', {
            name: paid.name,
            number: invoice.number,
            amount: formatMoney(invoice.amountMinor, invoice.currency, i18n.language),
          });
        return t('store.pay.done', { name: paid.name });
      },
      'store.pay.failed',
    );

  const moveUp = (app: InstalledApp) =>
    run(
      app,
      async () => {
        const moved = await upgrade(await token(), organization.id, app.id);
        return t('store.upgrade.done', { name: moved.name, version: moved.version });
      },
      'store.upgrade.failed',
    );

  const remove = async (app: InstalledApp, force: boolean) => {
    setBusy(app.id);
    try {
      await uninstall(await token(), organization.id, app.id, force);
      notifications.show({ color: 'green', message: t('store.delete.done', { name: app.name }) });
    } catch (error) {
      if (!force && hasStatus(error, 409)) {
        // An invoice is still open: the server keeps the app unless it may void the invoice.
        confirmDanger({
          title: t('store.delete.openInvoiceTitle', { name: app.name }),
          message: t('store.delete.openInvoice', { name: app.name }),
          confirmLabel: t('store.delete.force'),
          onConfirm: () => remove(app, true),
        });
      } else {
        notifications.show({
          color: 'red',
          title: t('store.delete.failed', { name: app.name }),
          message: describeError(t, error),
        });
      }
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const confirmDelete = (app: InstalledApp) =>
    confirmDanger({
      title: t('store.delete.title', { name: app.name }),
      message: t('store.delete.confirm', { name: app.name, organization: organization.name }),
      confirmLabel: t('store.delete.action'),
      onConfirm: () => remove(app, false),
    });

  let content: React.ReactNode;
  if (installed.isPending) {
    content = (
      <Center h={200}>
        <Loader aria-label={t('store.manage.loading')} />
      </Center>
    );
  } else if (installed.isError) {
    content = (
      <LoadFailed
        title={t('store.manage.loadFailed')}
        message={describeError(t, installed.error)}
        onRetry={() => void installed.refetch()}
      />
    );
  } else if (installed.data.items.length === 0) {
    content = (
      <Center mih={160}>
        <Stack gap="xs" align="center">
          <Text fw={500}>{t('store.manage.empty')}</Text>
          <Text size="sm" c="dimmed">
            {canUpdate ? t('store.manage.emptyHint') : t('store.manage.emptyAskHint')}
          </Text>
          <Button component={Link} to="/store" variant="light" size="sm">
            {t('store.manage.browse')}
          </Button>
        </Stack>
      </Center>
    );
  } else {
    content = (
      <Table.ScrollContainer minWidth={760}>
        <Table
          highlightOnHover
          aria-label={t('store.manage.tableLabel')}
          aria-busy={installed.isFetching}
          data-testid="installed-apps"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('store.manage.columns.app')}</Table.Th>
              <Table.Th>{t('store.manage.columns.plan')}</Table.Th>
              <Table.Th>{t('store.manage.columns.version')}</Table.Th>
              <Table.Th>{t('store.manage.columns.status')}</Table.Th>
              <Table.Th>{t('store.manage.columns.nextBilling')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('store.manage.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {installed.data.items.map((app) => {
              const paid = app.planDetail !== null && !isFree(app.planDetail);
              return (
                <Table.Tr key={app.id} data-testid="installed-app" data-app={app.id} data-status={app.status}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {app.name}
                    </Text>
                    {app.publisher && (
                      <Text size="xs" c="dimmed">
                        {t('store.card.publisher', { publisher: app.publisher })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-testid="installed-plan">
                    <Text size="sm">{app.planDetail?.name ?? app.plan}</Text>
                    <Text size="xs" c="dimmed">
                      {app.planDetail
                        ? planPriceText(t, i18n.language, app.planDetail)
                        : t('store.manage.planGone')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{app.version}</Text>
                    {app.upgradeAvailable && (
                      <Badge size="sm" variant="light" color="blue" tt="none">
                        {t('store.manage.newer', { version: app.latestVersion })}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[app.status]} variant="light" data-testid="installed-status">
                      {t(`store.status.${app.status}`)}
                    </Badge>
                    {app.lastInvoice &&
                      (app.lastInvoice.status === 'OPEN' || app.lastInvoice.status === 'FAILED') && (
                        <Text size="xs" c="dimmed">
                          {t(`store.manage.invoice.${app.lastInvoice.status}`, {
                            number: app.lastInvoice.number,
                            amount: formatMoney(
                              app.lastInvoice.amountMinor,
                              app.lastInvoice.currency,
                              i18n.language,
                            ),
                          })}
                        </Text>
                      )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {app.nextBillingAt
                        ? dates.format(new Date(app.nextBillingAt))
                        : t('store.manage.noBilling')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap" justify="flex-end">
                      <Button
                        component={Link}
                        to={`/store/container/${encodeURIComponent(app.id)}`}
                        size="xs"
                        aria-label={t('store.card.openLabel', { name: app.name })}
                      >
                        {t('store.card.open')}
                      </Button>
                      {canUpdate && (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="default"
                              size="lg"
                              aria-label={t('store.manage.actions', { name: app.name })}
                              loading={busy === app.id}
                              data-testid="installed-actions"
                            >
                              <span aria-hidden="true">⋯</span>
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setPlanFor(app)}>
                              {t('store.manage.changePlan')}
                            </Menu.Item>
                            {paid && (
                              <Menu.Item onClick={() => void pay(app)}>{t('store.manage.pay')}</Menu.Item>
                            )}
                            {paid && (
                              <Menu.Item onClick={() => setRescheduleFor(app)}>
                                {t('store.manage.reschedule')}
                              </Menu.Item>
                            )}
                            {app.upgradeAvailable && (
                              <Menu.Item onClick={() => void moveUp(app)}>
                                {t('store.manage.upgrade', { version: app.latestVersion })}
                              </Menu.Item>
                            )}
                            <Menu.Divider />
                            <Menu.Item color="red" onClick={() => confirmDelete(app)}>
                              {t('store.manage.delete')}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="md" data-testid="store-manage">
      <StoreTabs />
      <Stack gap={2}>
        <Title order={1} size="h2">
          {t('store.manage.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('store.manage.intro', { organization: organization.name })}
        </Text>
      </Stack>
      {content}
      <ChangePlanModal app={planFor} onClose={() => setPlanFor(null)} />
      <RescheduleModal app={rescheduleFor} onClose={() => setRescheduleFor(null)} />
    </Stack>
  );
}
