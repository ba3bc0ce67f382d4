import { Alert, Anchor, Button, Center, Group, Loader, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isHttpError, isNotFound } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { AuthorizationPanel } from './AuthorizationPanel.tsx';
import { type CatalogueApp, fetchApp, type InstalledApp, installApp, storeKeys } from './api.ts';
import { InvoiceNotice } from './InvoiceNotice.tsx';
import { PlanPicker, PlanPrice } from './PlanPicker.tsx';
import { cheapestPlan, planById } from './plans.ts';
import { refusalOf } from './transactions.ts';
import { useInstalledApps } from './use-installed.ts';

/** Past the last step (plan, authorize, done): every step shows as done and the result shows below. */
const DONE = 3;

/** Spec 2 /store/install/{appId}: choose a plan -> review and authorize its payments -> installed. */
export default function InstallPage() {
  const { t } = useTranslation();
  const { appId = '' } = useParams();
  const { organization, ability, token } = useOrganizationApi();
  const app = useQuery({
    queryKey: storeKeys.app(organization.id, appId),
    queryFn: async ({ signal }) => fetchApp(await token(), appId, signal),
    retry: (count, error) => count < 2 && !(isHttpError(error) && error.kind === 'status'),
  });
  const installed = useInstalledApps();

  let body: React.ReactNode;
  if (app.isPending || installed.isPending) {
    body = (
      <Center h={200}>
        <Loader aria-label={t('store.install.loading')} />
      </Center>
    );
  } else if (app.isError) {
    const unknown = isNotFound(app.error);
    body = (
      <Alert
        color={unknown ? 'yellow' : 'red'}
        title={t(unknown ? 'store.install.unknownTitle' : 'store.install.loadFailed')}
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {unknown ? t('store.install.unknown', { id: appId }) : describeError(t, app.error)}
          </Text>
          {!unknown && (
            <Button size="xs" variant="light" onClick={() => void app.refetch()}>
              {t('common.retry')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  } else if (!ability.can('UPDATE', 'organizations')) {
    body = (
      <Alert color="yellow" title={t('store.install.notAllowedTitle')}>
        {t('store.install.notAllowed', { name: app.data.name })}
      </Alert>
    );
  } else if (installed.isError) {
    body = (
      <LoadFailed
        title={t('store.catalogue.installedFailed')}
        message={describeError(t, installed.error)}
        onRetry={() => void installed.refetch()}
      />
    );
  } else {
    body = (
      <InstallWizard
        key={app.data.id}
        app={app.data}
        alreadyInstalled={installed.data.items.some((entry) => entry.id === app.data.id)}
      />
    );
  }

  return (
    <Stack gap="md" maw={960} data-testid="store-install">
      <Anchor component={Link} to="/store" size="sm">
        {t('store.install.backToStore')}
      </Anchor>
      <Title order={1} size="h2">
        {app.data ? t('store.install.title', { name: app.data.name }) : t('store.install.titleUnknown')}
      </Title>
      {body}
    </Stack>
  );
}

function InstallWizard({ app, alreadyInstalled }: { app: CatalogueApp; alreadyInstalled: boolean }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [active, setActive] = useState(0);
  const [planId, setPlanId] = useState<string | null>(cheapestPlan(app.plans)?.id ?? null);
  const [approved, setApproved] = useState(false);
  const [done, setDone] = useState<InstalledApp | null>(null);
  const plan = planById(app.plans, planId);

  const install = useMutation({
    mutationFn: async (approval: boolean) => {
      if (!plan) throw new Error('no plan chosen');
      return installApp(await token(), organization.id, { appId: app.id, plan: plan.id, approved: approval });
    },
    onSuccess: (result) => {
      setDone(result);
      setActive(DONE);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: storeKeys.installed(organization.id) }),
  });
  const refusal = install.error ? refusalOf(install.error) : undefined;

  if (alreadyInstalled && !done) {
    return (
      <Alert color="blue" title={t('store.install.alreadyTitle')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('store.install.already', { name: app.name })}</Text>
          <Group gap="xs">
            <Button component={Link} to={`/store/container/${encodeURIComponent(app.id)}`} size="xs">
              {t('store.done.open')}
            </Button>
            <Button component={Link} to="/store/manage" size="xs" variant="light">
              {t('store.done.manage')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (app.plans.length === 0) {
    return (
      <Alert color="yellow" title={t('store.install.noPlansTitle')}>
        {t('store.install.noPlans', { name: app.name })}
      </Alert>
    );
  }

  const selectable = (index: number) => active < DONE && index < active && !install.isPending;
  const choose = (next: string) => {
    setPlanId(next);
    setApproved(false);
    install.reset();
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('store.install.intro', { name: app.name, publisher: app.publisher, version: app.version })}
      </Text>
      <Stepper
        active={active}
        onStepClick={(index) => {
          if (selectable(index)) setActive(index);
        }}
        allowNextStepsSelect={false}
        aria-label={t('store.wizard.label')}
      >
        <Stepper.Step
          label={t('store.wizard.plan')}
          description={t('store.wizard.planDescription')}
          allowStepSelect={selectable(0)}
        >
          <Stack gap="md" mt="md">
            <PlanPicker plans={app.plans} value={planId} onChange={choose} label={t('store.plan.choose')} />
            <Group justify="flex-end">
              <Button onClick={() => setActive(1)} disabled={!plan} data-testid="plan-next">
                {t('store.wizard.next')}
              </Button>
            </Group>
          </Stack>
        </Stepper.Step>
        <Stepper.Step
          label={t('store.wizard.authorize')}
          description={t('store.wizard.authorizeDescription')}
          allowStepSelect={selectable(1)}
        >
          {plan && (
            <Stack gap="md" mt="md">
              <Group gap="xs">
                <Text fw={600}>{t('store.install.chosenPlan', { plan: plan.name })}</Text>
                <PlanPrice plan={plan} />
              </Group>
              <AuthorizationPanel
                appName={app.name}
                publisher={app.publisher}
                plan={plan}
                approved={approved}
                onApprovedChange={setApproved}
                onConfirm={() => install.mutate(true)}
                onDecline={() => {
                  setApproved(false);
                  install.mutate(false);
                }}
                onBack={() => setActive(0)}
                pending={install.isPending}
                refusal={refusal}
                errorText={
                  install.error === null
                    ? undefined
                    : hasStatus(install.error, 409)
                      ? t('store.install.conflict', { name: app.name })
                      : describeError(t, install.error)
                }
                confirmLabel={t(
                  plan.priceMinor === 0 ? 'store.install.confirmFree' : 'store.install.confirmPaid',
                )}
                progressLabel={t('store.install.progress', { name: app.name })}
              />
            </Stack>
          )}
        </Stepper.Step>
        <Stepper.Step
          label={t('store.wizard.done')}
          description={t('store.wizard.doneDescription')}
          allowStepSelect={false}
        />
        <Stepper.Completed>
          {done && (
            <Stack gap="md" mt="md" data-testid="install-done">
              <Alert color="green" title={t('store.done.title')} role="status">
                {t('store.done.installed', { name: done.name, plan: done.planDetail?.name ?? done.plan })}
              </Alert>
              <InvoiceNotice app={done} />
              <Group gap="xs">
                <Button
                  component={Link}
                  to={`/store/container/${encodeURIComponent(done.id)}`}
                  data-testid="open-installed"
                >
                  {t('store.done.open')}
                </Button>
                <Button component={Link} to="/store/manage" variant="light">
                  {t('store.done.manage')}
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Completed>
      </Stepper>
    </Stack>
  );
}
