import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { type InstalledApp, reschedule, storeKeys } from './api.ts';
import { billingDayProblem, earliestBillingDay, initialBillingDay, startOfDay } from './billing-date.ts';

/** Moves the next billing of a paid plan to another day (never one in the past). */
export function RescheduleModal({ app, onClose }: { app: InstalledApp | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={app !== null}
      onClose={onClose}
      title={app ? t('store.reschedule.title', { name: app.name }) : ''}
    >
      {app && <RescheduleForm key={app.id} app={app} onClose={onClose} />}
    </Modal>
  );
}

function RescheduleForm({ app, onClose }: { app: InstalledApp; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [now] = useState(() => new Date());
  const earliest = earliestBillingDay(now);
  const [day, setDay] = useState(() => initialBillingDay(app.nextBillingAt, now));
  const [touched, setTouched] = useState(false);
  const problem = billingDayProblem(day, now);

  const save = useMutation({
    mutationFn: async () => {
      const start = startOfDay(day);
      if (!start) throw new Error(`${day} is not a day`);
      return reschedule(await token(), organization.id, app.id, start.toISOString());
    },
    onSuccess: (changed) => {
      notifications.show({
        color: 'green',
        message: t('store.reschedule.done', {
          name: changed.name,
          date: changed.nextBillingAt
            ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
                new Date(changed.nextBillingAt),
              )
            : '',
        }),
      });
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: storeKeys.installed(organization.id) }),
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (!problem) save.mutate();
      }}
      noValidate
    >
      <Stack gap="md">
        <Text size="sm">{t('store.reschedule.intro')}</Text>
        <TextInput
          type="date"
          label={t('store.reschedule.date')}
          value={day}
          min={earliest}
          onChange={(event) => {
            setDay(event.currentTarget.value);
            setTouched(true);
          }}
          error={touched && problem ? t(`store.reschedule.problems.${problem}`) : undefined}
          required
          data-autofocus
          data-testid="reschedule-date"
        />
        {save.isError && (
          <Text size="sm" c="red" role="alert">
            {t('store.reschedule.failed', { reason: describeError(t, save.error) })}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('store.reschedule.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
