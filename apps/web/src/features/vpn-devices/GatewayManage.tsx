import { Button, Divider, Group as Row, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { isFeatureEnabled } from '../experimental/flags.ts';
import {
  cloneGateway,
  fetchEdgeConfigFile,
  fetchGateways,
  type GatewayDetail,
  resetVpnConnection,
} from './api.ts';
import { FailureAlert } from './FailureAlert.tsx';
import { failureLine, vpnFailure } from './messages.ts';
import { GATEWAYS_KEY } from './query-keys.ts';
import { fileNameOf, isActivationKey, normalizeActivationKey } from './validation.ts';

/** Management of a gateway (UPDATE devices): its edge configuration file, cloning its setup, resetting its tunnel. */
export function GatewayManage({ gateway }: { gateway: GatewayDetail }) {
  const [hideExport] = useState(() => isFeatureEnabled('hideVpnExportConfig'));
  return (
    <Stack gap="lg" data-testid="gateway-manage">
      {!hideExport && (
        <>
          <EdgeConfig gateway={gateway} />
          <Divider />
        </>
      )}
      <Clone gateway={gateway} />
      <Divider />
      <Reset gateway={gateway} />
    </Stack>
  );
}

/** Saves a file the way a download link would. */
function saveFile(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function EdgeConfig({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [touched, setTouched] = useState(false);
  const normalized = normalizeActivationKey(key);
  const keyWrong = !isActivationKey(normalized);
  const download = useMutation({
    mutationFn: async () =>
      fetchEdgeConfigFile(await token(), organization.resourceId, gateway.name, normalized),
    onSuccess: async ({ file, contentDisposition }) => {
      saveFile(file, fileNameOf(contentDisposition) ?? `edgeport-gateway-${gateway.name}.json`);
      setKey('');
      setTouched(false);
      notifications.show({
        color: 'green',
        message: t('vpnDevices.edgeConfig.done', { name: gateway.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (keyWrong) return;
    if (gateway.configured) {
      confirmDanger({
        title: t('vpnDevices.edgeConfig.confirmTitle'),
        message: t('vpnDevices.edgeConfig.confirmMessage', { name: gateway.name }),
        confirmLabel: t('vpnDevices.edgeConfig.confirm'),
        color: 'orange',
        onConfirm: () => download.mutate(),
      });
    } else download.mutate();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('vpnDevices.edgeConfig.title')}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('vpnDevices.edgeConfig.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('vpnDevices.edgeConfig.intro')}
        </Text>
        <TextInput
          label={t('vpnDevices.edgeConfig.key')}
          placeholder="EP-XXXX-XXXX-XXXX"
          value={key}
          onChange={(event) => setKey(event.currentTarget.value)}
          ff="monospace"
          autoComplete="off"
          w={260}
          error={touched && keyWrong ? t('vpnDevices.edgeConfig.keyInvalid') : undefined}
        />
        {download.isError && (
          <FailureAlert title={t('vpnDevices.edgeConfig.failed')} error={download.error} />
        )}
        <Row>
          <Button type="submit" variant="light" loading={download.isPending}>
            {t('vpnDevices.edgeConfig.download')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}

function Clone({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<string | null>(null);
  const others = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'clone-targets'],
    queryFn: async ({ signal }) =>
      fetchGateways(await token(), organization.resourceId, { page: 0, pageSize: 1000 }, signal),
    staleTime: 30_000,
  });
  const clone = useMutation({
    mutationFn: async (to: string) => cloneGateway(await token(), organization.resourceId, gateway.name, to),
    onSuccess: async (_answer, to) => {
      setTarget(null);
      notifications.show({
        color: 'green',
        message: t('vpnDevices.clone.done', { source: gateway.name, target: to }),
      });
      await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('vpnDevices.clone.failed'),
        message: failureLine(vpnFailure(t, error)),
      }),
  });
  const options = (others.data?.items ?? [])
    .filter((other) => other.id !== gateway.id)
    .map((other) => ({ value: other.name, label: other.name }));

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('vpnDevices.clone.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('vpnDevices.clone.intro')}
      </Text>
      <Row gap="sm" align="flex-end">
        <Select
          label={t('vpnDevices.clone.target')}
          data={options}
          value={target}
          onChange={setTarget}
          searchable
          nothingFoundMessage={t('vpnDevices.clone.noTargets')}
          w={260}
        />
        <Button
          variant="light"
          disabled={!target}
          loading={clone.isPending}
          onClick={() => {
            if (!target) return;
            confirmDanger({
              title: t('vpnDevices.clone.confirmTitle'),
              message: t('vpnDevices.clone.confirmMessage', { source: gateway.name, target }),
              confirmLabel: t('vpnDevices.clone.confirm'),
              color: 'orange',
              onConfirm: () => clone.mutate(target),
            });
          }}
        >
          {t('vpnDevices.clone.submit')}
        </Button>
      </Row>
    </Stack>
  );
}

function Reset({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: async () => resetVpnConnection(await token(), organization.resourceId, gateway.name),
    onSuccess: async (answer) => {
      notifications.show({
        color: 'green',
        message: answer.reset
          ? t('vpnDevices.reset.done', { name: gateway.name })
          : t('vpnDevices.reset.noTunnel', { name: gateway.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
    },
  });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('vpnDevices.reset.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('vpnDevices.reset.intro')}
      </Text>
      {reset.isError && <FailureAlert title={t('vpnDevices.reset.failed')} error={reset.error} />}
      <Row>
        <Button
          color="red"
          variant="light"
          loading={reset.isPending}
          onClick={() =>
            confirmDanger({
              title: t('vpnDevices.reset.confirmTitle'),
              message: t('vpnDevices.reset.confirmMessage', { name: gateway.name }),
              confirmLabel: t('vpnDevices.reset.confirm'),
              onConfirm: () => reset.mutate(),
            })
          }
        >
          {t('vpnDevices.reset.submit')}
        </Button>
      </Row>
    </Stack>
  );
}
