import { Button, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { type LatestValue, writeSetpoint } from './api.ts';

type Value = number | boolean | string;

/** The input for a path's type, starting at its current value. */
function SetpointForm({ value, onSubmit }: { value: LatestValue; onSubmit: (value: Value) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Value>(value.value);
  const label = t('devices.setpoint.value', { path: value.path });
  const input =
    value.type === 'boolean' ? (
      <Switch
        label={label}
        checked={draft === true}
        onChange={(event) => setDraft(event.currentTarget.checked)}
      />
    ) : value.type === 'string' ? (
      <TextInput
        label={label}
        value={String(draft)}
        onChange={(event) => setDraft(event.currentTarget.value)}
        data-autofocus
      />
    ) : (
      <NumberInput
        label={label}
        value={typeof draft === 'number' ? draft : undefined}
        onChange={(next) => setDraft(typeof next === 'number' ? next : Number(next))}
        allowDecimal={value.type !== 'integer'}
        rightSection={value.unit ? <Text size="xs">{value.unit}</Text> : undefined}
        data-autofocus
      />
    );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(draft);
      }}
    >
      <Stack>
        {input}
        <Text size="sm" c="dimmed">
          {t('devices.setpoint.confirm')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => modals.closeAll()}>
            {t('devices.setpoint.cancel')}
          </Button>
          <Button type="submit">{t('devices.setpoint.send')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Write…" for a writable path: asks for the value and a confirmation, then sends the set-point to the device. */
export function SetpointButton({ deviceId, value }: { deviceId: string; value: LatestValue }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();

  const send = async (next: Value) => {
    modals.closeAll();
    try {
      const sent = await writeSetpoint(await token(), organization.id, deviceId, value.path, next);
      notifications.show({
        color: 'teal',
        message: t(sent.deviceOnline ? 'devices.setpoint.sent' : 'devices.setpoint.queued', {
          path: value.path,
        }),
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('devices.setpoint.failed'),
        message: describeError(t, error),
      });
    }
  };

  return (
    <Button
      size="compact-xs"
      variant="light"
      onClick={() =>
        modals.open({
          title: t('devices.setpoint.title', { path: value.path }),
          children: <SetpointForm value={value} onSubmit={(next) => void send(next)} />,
        })
      }
    >
      {t('devices.setpoint.write')}
    </Button>
  );
}
