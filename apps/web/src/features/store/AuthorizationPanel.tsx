import { Alert, Button, Checkbox, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AppPlan } from './api.ts';
import { isFree, priceOf } from './plans.ts';
import { type Refusal, resultColor, resultKey } from './transactions.ts';

type AuthorizationPanelProps = {
  appName: string;
  publisher: string;
  plan: AppPlan;
  approved: boolean;
  onApprovedChange: (approved: boolean) => void;
  /** Authorize (paid plans, `approved` ticked) or simply go ahead (free plans). */
  onConfirm: () => void;
  /** Refuse the payment: the server records the refusal and answers USER_REJECTED. */
  onDecline: () => void;
  onBack?: () => void;
  pending: boolean;
  /** What the server did with the last authorization request, when it refused. */
  refusal: Refusal | undefined;
  /** Any other failure of the last request, in words. */
  errorText: string | undefined;
  confirmLabel: string;
  progressLabel: string;
};

/**
 * Review and authorize a plan's recurring payments (spec 3 "preauthorized transaction"). The checkbox is the user's
 * authorization; Decline sends the refusal, which the server answers with USER_REJECTED. Every result is said in
 * words.
 */
export function AuthorizationPanel(props: AuthorizationPanelProps) {
  const { t, i18n } = useTranslation();
  const { plan } = props;
  const free = isFree(plan);
  const price = priceOf(plan, i18n.language) ?? '';
  const period = t(`store.period.${plan.period}`);
  return (
    <Stack gap="md" data-testid="authorization">
      {free ? (
        <Text size="sm">{t('store.authorize.free', { plan: plan.name })}</Text>
      ) : (
        <>
          <Text size="sm">
            {t('store.authorize.summary', { app: props.appName, plan: plan.name, price, period })}
          </Text>
          <Checkbox
            checked={props.approved}
            onChange={(event) => props.onApprovedChange(event.currentTarget.checked)}
            disabled={props.pending}
            label={t('store.authorize.consent', {
              price,
              period,
              publisher: props.publisher || props.appName,
            })}
            data-testid="authorize-payment"
          />
        </>
      )}
      {props.refusal && (
        <Alert
          color={resultColor(props.refusal)}
          title={t('store.results.title')}
          role="alert"
          data-testid="transaction-result"
          data-result={props.refusal}
        >
          {t(resultKey(props.refusal))}
        </Alert>
      )}
      {props.errorText && !props.refusal && (
        <Alert color="red" title={t('store.authorize.failed')} role="alert">
          {props.errorText}
        </Alert>
      )}
      {props.pending && (
        <Stack gap={4} role="status" aria-live="polite">
          <Text size="sm">{props.progressLabel}</Text>
          <Progress value={100} animated striped aria-label={props.progressLabel} />
        </Stack>
      )}
      <Group justify="space-between">
        {props.onBack ? (
          <Button variant="default" onClick={props.onBack} disabled={props.pending}>
            {t('store.wizard.back')}
          </Button>
        ) : (
          <span />
        )}
        <Group gap="xs">
          {!free && (
            <Button
              variant="default"
              color="red"
              onClick={props.onDecline}
              disabled={props.pending}
              data-testid="decline-payment"
            >
              {t('store.authorize.decline')}
            </Button>
          )}
          <Button
            onClick={props.onConfirm}
            disabled={(!free && !props.approved) || props.pending}
            loading={props.pending}
            data-testid="confirm-authorization"
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
