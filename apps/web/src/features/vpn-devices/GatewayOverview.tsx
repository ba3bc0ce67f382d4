import {
  Alert,
  Badge,
  Button,
  NumberInput,
  Group as Row,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { formatCoordinate } from '../devices/format.ts';
import { positionProblem } from '../devices/messages.ts';
import { useNow } from '../devices/use-now.ts';
import { isFeatureEnabled } from '../experimental/flags.ts';
import {
  fetchProfiles,
  type GatewayChanges,
  type GatewayDetail,
  saveGatewayPosition,
  updateGateway,
} from './api.ts';
import { FailureAlert } from './FailureAlert.tsx';
import { GatewayStatusSince } from './GatewayStatus.tsx';
import { failureLine, vpnFailure } from './messages.ts';
import { GATEWAYS_KEY } from './query-keys.ts';
import { changesOf, type SettingsValues as Values, settingsOf as valuesOf } from './settings-form.ts';
import { looksLikeCidr } from './validation.ts';

/** The gateway's facts; description, LAN, application profile, IP filter (ipFilter flag) and position editable. */
export function GatewayOverview({ gateway }: { gateway: GatewayDetail }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const canUpdate = ability.can('UPDATE', 'devices');
  const [showSize] = useState(() => isFeatureEnabled('VPNnetworkSize'));
  const [showVpnIp] = useState(() => isFeatureEnabled('showVpnIp'));
  const [withIpFilter] = useState(() => isFeatureEnabled('ipFilter'));
  const now = useNow(15_000) + gateway.clockOffset;
  const number = new Intl.NumberFormat(i18n.language);

  const profiles = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'profiles'],
    queryFn: async ({ signal }) => fetchProfiles(await token(), organization.resourceId, signal),
    staleTime: 60_000,
  });
  const profileName =
    gateway.profileId === null
      ? t('vpnDevices.fields.noProfile')
      : (profiles.data?.items.find((profile) => profile.id === gateway.profileId)?.name ?? '…');

  const facts: [string, ReactNode][] = [
    [t('vpnDevices.fields.status'), <GatewayStatusSince key="status" gateway={gateway} now={now} />],
    [t('vpnDevices.fields.description'), gateway.description || '—'],
    [
      t('vpnDevices.fields.lanNetwork'),
      gateway.lanNetwork ? (
        <Text key="lan" size="sm" ff="monospace" span>
          {gateway.lanNetwork}
          {showSize && gateway.networkSize !== null && (
            <Text span size="xs" c="dimmed" ml="xs" ff="body">
              {t('vpnDevices.hosts', {
                count: gateway.networkSize,
                formatted: number.format(gateway.networkSize),
              })}
            </Text>
          )}
        </Text>
      ) : (
        t('vpnDevices.noLan')
      ),
    ],
    ...(showVpnIp ? [[t('vpnDevices.fields.vpnIp'), gateway.vpnIp ?? '—'] as [string, ReactNode]] : []),
    [t('vpnDevices.fields.profile'), profileName],
    [
      t('vpnDevices.fields.otp'),
      gateway.otpRequired ? (
        <Badge key="otp" color="orange" variant="light" tt="none">
          {t('vpnDevices.fields.otpRequired')}
        </Badge>
      ) : (
        t('vpnDevices.fields.otpNotRequired')
      ),
    ],
    [t('vpnDevices.fields.endpoints'), number.format(gateway.endpointCount)],
    [t('vpnDevices.fields.agentVersion'), gateway.agentVersion ?? '—'],
    [
      t('vpnDevices.fields.configured'),
      gateway.configured ? t('vpnDevices.fields.configuredYes') : t('vpnDevices.fields.configuredNo'),
    ],
    ...(withIpFilter
      ? [
          [
            t('vpnDevices.fields.ipFilter'),
            gateway.ipFilter.length ? gateway.ipFilter.join(', ') : t('vpnDevices.fields.ipFilterAny'),
          ] as [string, ReactNode],
        ]
      : []),
    ...(!canUpdate
      ? [
          [
            t('vpnDevices.fields.position'),
            gateway.latitude !== null && gateway.longitude !== null
              ? `${formatCoordinate(gateway.latitude, i18n.language)}, ${formatCoordinate(gateway.longitude, i18n.language)}`
              : t('vpnDevices.noPosition'),
          ] as [string, ReactNode],
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <Table variant="vertical" withTableBorder layout="fixed" data-testid="gateway-facts">
        <Table.Tbody>
          {facts.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={180}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canUpdate && (
        <>
          <EditForm
            gateway={gateway}
            withIpFilter={withIpFilter}
            profileOptions={(profiles.data?.items ?? []).map((profile) => ({
              value: profile.id,
              label: profile.otpRequired
                ? t('vpnDevices.edit.profileWithOtp', { name: profile.name })
                : profile.name,
            }))}
            onSaved={() => queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] })}
          />
          <PositionForm
            gateway={gateway}
            onSaved={() => queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] })}
          />
        </>
      )}
    </Stack>
  );
}

function EditForm({
  gateway,
  withIpFilter,
  profileOptions,
  onSaved,
}: {
  gateway: GatewayDetail;
  withIpFilter: boolean;
  profileOptions: { value: string; label: string }[];
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const form = useForm<Values>({ defaultValues: valuesOf(gateway) });
  const save = useMutation({
    mutationFn: async (changes: GatewayChanges) =>
      updateGateway(await token(), organization.resourceId, gateway.name, changes),
    onSuccess: async (saved) => {
      notifications.show({ color: 'green', message: t('vpnDevices.edit.saved', { name: saved.name }) });
      form.reset(valuesOf(saved));
      await onSaved();
    },
  });
  const submit = form.handleSubmit((values) => {
    const changes = changesOf(form.formState.defaultValues as Values, values, withIpFilter);
    if (Object.keys(changes).length === 0) return;
    save.mutate(changes);
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('vpnDevices.edit.title')}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('vpnDevices.edit.title')}
        </Title>
        <Textarea
          label={t('vpnDevices.fields.description')}
          autosize
          minRows={2}
          maxLength={500}
          {...form.register('description')}
        />
        <TextInput
          label={t('vpnDevices.fields.lanNetwork')}
          description={t('vpnDevices.edit.lanHint')}
          placeholder="192.168.10.0/24"
          ff="monospace"
          error={form.formState.errors.lanNetwork?.message}
          {...form.register('lanNetwork', {
            validate: (value) =>
              value.trim() === '' || looksLikeCidr(value) ? true : t('vpnDevices.edit.lanInvalid'),
          })}
        />
        <Controller
          control={form.control}
          name="profileId"
          render={({ field }) => (
            <Select
              label={t('vpnDevices.fields.profile')}
              placeholder={t('vpnDevices.fields.noProfile')}
              data={profileOptions}
              value={field.value}
              onChange={field.onChange}
              clearable
              searchable
              nothingFoundMessage={t('vpnDevices.edit.noProfiles')}
            />
          )}
        />
        {withIpFilter && (
          <Textarea
            label={t('vpnDevices.fields.ipFilter')}
            description={t('vpnDevices.edit.ipFilterHint')}
            autosize
            minRows={2}
            ff="monospace"
            {...form.register('ipFilter')}
          />
        )}
        {save.isError && <FailureAlert title={t('vpnDevices.edit.failed')} error={save.error} />}
        <Row gap="xs">
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            {t('vpnDevices.edit.save')}
          </Button>
          <Button
            variant="default"
            onClick={() => form.reset()}
            disabled={!form.formState.isDirty || save.isPending}
          >
            {t('vpnDevices.edit.undo')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}

function PositionForm({ gateway, onSaved }: { gateway: GatewayDetail; onSaved: () => unknown }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [latitude, setLatitude] = useState<string | number>(gateway.latitude ?? '');
  const [longitude, setLongitude] = useState<string | number>(gateway.longitude ?? '');
  const [problem, setProblem] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: async (position: { latitude: number; longitude: number }) =>
      saveGatewayPosition(await token(), organization.resourceId, gateway.name, position),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('vpnDevices.position.saved', { name: gateway.name }) });
      await onSaved();
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('vpnDevices.position.failed'),
        message: failureLine(vpnFailure(t, error)),
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const lat = String(latitude);
    const lng = String(longitude);
    const wrong =
      lat.trim() === '' || lng.trim() === ''
        ? 'devices.validation.bothCoordinates'
        : positionProblem(lat, lng);
    setProblem(wrong ? t(wrong) : undefined);
    if (wrong) return;
    save.mutate({ latitude: Number(lat), longitude: Number(lng) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('vpnDevices.position.title')}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('vpnDevices.position.title')}
        </Title>
        <Row gap="sm" align="flex-start">
          <NumberInput
            label={t('vpnDevices.position.latitude')}
            value={latitude}
            onChange={setLatitude}
            min={-90}
            max={90}
            decimalScale={6}
            w={160}
          />
          <NumberInput
            label={t('vpnDevices.position.longitude')}
            value={longitude}
            onChange={setLongitude}
            min={-180}
            max={180}
            decimalScale={6}
            w={160}
          />
        </Row>
        {problem && (
          <Alert color="red" p="xs" role="alert">
            <Text size="sm">{problem}</Text>
          </Alert>
        )}
        <Row>
          <Button type="submit" variant="light" loading={save.isPending}>
            {t('vpnDevices.position.save')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
