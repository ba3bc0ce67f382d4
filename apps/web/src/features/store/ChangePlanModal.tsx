import { Center, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { AuthorizationPanel } from './AuthorizationPanel.tsx';
import { changePlan, fetchApp, type InstalledApp, storeKeys } from './api.ts';
import { PlanPicker } from './PlanPicker.tsx';
import { planById } from './plans.ts';
import { refusalOf } from './transactions.ts';

/** Moves an installed app to another plan; a paid plan needs the user's authorization of its payments. */
export function ChangePlanModal({ app, onClose }: { app: InstalledApp | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={app !== null}
      onClose={onClose}
      title={app ? t('store.changePlan.title', { name: app.name }) : ''}
      size="lg"
    >
      {app && <ChangePlanForm key={app.id} app={app} onClose={onClose} />}
    </Modal>
  );
}

function ChangePlanForm({ app, onClose }: { app: InstalledApp; onClose: () => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [planId, setPlanId] = useState<string | null>(null);
  const [approved, setApproved] = useState(false);
  const catalogue = useQuery({
    queryKey: storeKeys.app(organization.id, app.id),
    queryFn: async ({ signal }) => fetchApp(await token(), app.id, signal),
  });
  const plan = planById(catalogue.data?.plans ?? [], planId);

  const change = useMutation({
    mutationFn: async (approval: boolean) => {
      if (!plan) throw new Error('no plan chosen');
      return changePlan(await token(), organization.id, app.id, plan.id, approval);
    },
    onSuccess: (changed) => {
      notifications.show({
        color: 'green',
        message: t('store.changePlan.done', {
          name: changed.name,
          plan: changed.planDetail?.name ?? changed.plan,
        }),
      });
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: storeKeys.installed(organization.id) }),
  });

  if (catalogue.isPending)
    return (
      <Center h={120}>
        <Loader aria-label={t('store.changePlan.loading')} />
      </Center>
    );
  if (catalogue.isError)
    return (
      <LoadFailed
        title={t('store.changePlan.loadFailed')}
        message={describeError(t, catalogue.error)}
        onRetry={() => void catalogue.refetch()}
      />
    );
  const others = catalogue.data.plans.filter((entry) => entry.id !== app.plan);
  if (others.length === 0) return <Text size="sm">{t('store.changePlan.noOther', { name: app.name })}</Text>;

  return (
    <Stack gap="md" data-testid="change-plan">
      <PlanPicker
        plans={catalogue.data.plans}
        value={planId}
        current={app.plan}
        onChange={(next) => {
          setPlanId(next);
          setApproved(false);
          change.reset();
        }}
        label={t('store.changePlan.choose')}
      />
      {plan ? (
        <AuthorizationPanel
          appName={app.name}
          publisher={app.publisher}
          plan={plan}
          approved={approved}
          onApprovedChange={setApproved}
          onConfirm={() => change.mutate(true)}
          onDecline={() => {
            setApproved(false);
            change.mutate(false);
          }}
          pending={change.isPending}
          refusal={change.error ? refusalOf(change.error) : undefined}
          errorText={change.error ? describeError(t, change.error) : undefined}
          confirmLabel={t(
            plan.priceMinor === 0 ? 'store.changePlan.confirmFree' : 'store.changePlan.confirmPaid',
          )}
          progressLabel={t('store.changePlan.progress', { name: app.name })}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('store.changePlan.pick')}
        </Text>
      )}
    </Stack>
  );
}
