import { Badge, Button, Group as Row, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { formatMoney } from '../../shared/money/money.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { type License, renewLicense, revokeLicense, setAutorenew } from './api.ts';
import { LICENSE_STATUS_COLOR, licenseActions } from './format.ts';
import { dealerFailure } from './messages.ts';
import { DEALER_KEY } from './query-keys.ts';

export function LicenseStatusBadge({ status }: { status: License['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={LICENSE_STATUS_COLOR[status]}
      variant="light"
      tt="none"
      style={{ minWidth: 'max-content' }}
      data-testid="license-status"
    >
      {t(`dealer.status.${status}`)}
    </Badge>
  );
}

/** Reloads everything the dealer area shows: a licence change moves counts, lists, invoices and resources. */
export function useRefreshDealer() {
  const queryClient = useQueryClient();
  const { organization } = useOrganizationApi();
  return () => queryClient.invalidateQueries({ queryKey: [DEALER_KEY, organization.id] });
}

/** The autorenew switch of a licence the dealer issued (disabled once the licence is revoked). */
export function AutorenewSwitch({ license }: { license: License }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const [pending, setPending] = useState(false);
  const allowed = licenseActions(license.status).autorenew;

  const change = async (autorenew: boolean) => {
    setPending(true);
    try {
      await setAutorenew(await token(), organization.id, license.id, autorenew);
      notifications.show({
        color: 'green',
        message: t(autorenew ? 'dealer.autorenew.on' : 'dealer.autorenew.off', { code: license.licenseCode }),
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('dealer.autorenew.failed'),
        message: dealerFailure(t, 'autorenew', error),
      });
    } finally {
      setPending(false);
      await refresh();
    }
  };

  return (
    <Switch
      checked={license.autorenew}
      disabled={!allowed || pending}
      onChange={(event) => void change(event.currentTarget.checked)}
      aria-label={t('dealer.autorenew.label', { code: license.licenseCode })}
    />
  );
}

/** Renew (one term, charged to the client) and revoke (final) of one issued licence, each after a confirmation. */
export function LicenseRowActions({ license }: { license: License }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const allowed = licenseActions(license.status);
  const price = formatMoney(license.termPriceMinor, license.grant.currency, i18n.language);

  const renew = async () => {
    try {
      const { charge } = await renewLicense(await token(), organization.id, license.id);
      notifications.show({
        color: 'green',
        message: charge
          ? t('dealer.renew.done', {
              code: license.licenseCode,
              amount: formatMoney(charge.amountMinor, charge.currency, i18n.language),
            })
          : t('dealer.renew.doneFree', { code: license.licenseCode }),
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('dealer.renew.failed'),
        message: dealerFailure(t, 'renew', error),
      });
    } finally {
      await refresh();
    }
  };
  const revoke = async () => {
    try {
      await revokeLicense(await token(), organization.id, license.id);
      notifications.show({ color: 'green', message: t('dealer.revoke.done', { code: license.licenseCode }) });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('dealer.revoke.failed'),
        message: dealerFailure(t, 'revoke', error),
      });
    } finally {
      await refresh();
    }
  };

  if (!allowed.renew && !allowed.revoke) return null;
  return (
    <Row gap="xs" wrap="nowrap" justify="flex-end">
      {allowed.renew && (
        <Button
          size="compact-sm"
          variant="subtle"
          aria-label={t('dealer.renew.label', { code: license.licenseCode })}
          onClick={() =>
            confirmDanger({
              title: t('dealer.renew.title'),
              message: (
                <Text size="sm">
                  {t('dealer.renew.confirm', {
                    code: license.licenseCode,
                    client: license.organizationName,
                    days: license.grant.termDays,
                    price,
                  })}
                </Text>
              ),
              confirmLabel: t('dealer.renew.action'),
              color: 'orange',
              onConfirm: renew,
            })
          }
        >
          {t('dealer.renew.short')}
        </Button>
      )}
      {allowed.revoke && (
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          aria-label={t('dealer.revoke.label', { code: license.licenseCode })}
          onClick={() =>
            confirmDanger({
              title: t('dealer.revoke.title'),
              message: t('dealer.revoke.confirm', {
                code: license.licenseCode,
                client: license.organizationName,
              }),
              confirmLabel: t('dealer.revoke.action'),
              onConfirm: revoke,
            })
          }
        >
          {t('dealer.revoke.short')}
        </Button>
      )}
    </Row>
  );
}
