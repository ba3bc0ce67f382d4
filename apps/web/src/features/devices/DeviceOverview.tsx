import {
  Alert,
  Anchor,
  Badge,
  Button,
  NumberInput,
  Group as Row,
  Stack,
  Table,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { isFeatureEnabled } from '../experimental/flags.ts';
import { type DeviceChanges, type DeviceDetail, fetchPreset, updateDevice } from './api.ts';
import { ServiceAccountName, ServiceAccountSelect } from './DeviceServiceAccount.tsx';
import { DeviceStatusBadge } from './DeviceStatusBadge.tsx';
import { absoluteTime, formatCoordinate, parseTags, relativeTime } from './format.ts';
import { deviceFailure, positionProblem } from './messages.ts';
import { DEVICES_KEY } from './query-keys.ts';
import { useNow } from './use-now.ts';

type Values = {
  label: string;
  alias: string;
  description: string;
  tags: string[];
  latitude: string | number;
  longitude: string | number;
};

function valuesOf(device: DeviceDetail): Values {
  return {
    label: device.label,
    alias: device.alias ?? '',
    description: device.description,
    tags: device.tags,
    latitude: device.latitude ?? '',
    longitude: device.longitude ?? '',
  };
}

/** The device's identity, tags, preset, groups and position; label, alias, description, tags and position are editable. */
export function DeviceOverview({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const now = useNow();
  const canUpdate = ability.can('UPDATE', 'devices');
  const [hideSerial] = useState(() => isFeatureEnabled('hideDeviceSerialNumber'));
  const [hideDescription] = useState(() => isFeatureEnabled('hideDeviceDescription'));
  const [serviceAccounts] = useState(() => isFeatureEnabled('deviceServiceAccountAssociation'));
  // Choosing a service account needs UPDATE devices and the list of clients (READ organizations).
  const canChooseServiceAccount = serviceAccounts && canUpdate && ability.can('READ', 'organizations');
  const preset = useQuery({
    queryKey: ['mappings', organization.id, 'preset', device.presetId],
    queryFn: async ({ signal }) => fetchPreset(await token(), organization.id, device.presetId ?? '', signal),
    enabled: device.presetId !== null && ability.can('READ', 'models'),
    retry: false,
  });

  const facts: [string, ReactNode][] = [
    [t('devices.fields.status'), <DeviceStatusBadge key="status" status={device.status} />],
    ...(!canUpdate
      ? ([
          [t('devices.fields.label'), device.label],
          [t('devices.fields.alias'), device.alias ?? '—'],
          ...(!hideDescription
            ? [[t('devices.fields.description'), device.description || '—'] as [string, string]]
            : []),
          [
            t('devices.fields.tags'),
            device.tags.length ? (
              <Row gap={4} key="tags">
                {device.tags.map((tag) => (
                  <Badge key={tag} variant="outline" tt="none" size="sm">
                    {tag}
                  </Badge>
                ))}
              </Row>
            ) : (
              '—'
            ),
          ],
          [
            t('devices.fields.position'),
            device.latitude !== null && device.longitude !== null
              ? `${formatCoordinate(device.latitude, i18n.language)}, ${formatCoordinate(device.longitude, i18n.language)}`
              : t('devices.noPosition'),
          ],
        ] as [string, ReactNode][])
      : []),
    ...(!hideSerial
      ? [[t('devices.fields.serialNumber'), device.serialNumber || '—'] as [string, string]]
      : []),
    [
      t('devices.fields.lastSeenAt'),
      device.lastSeenAt
        ? `${relativeTime(device.lastSeenAt, now, i18n.language)} (${absoluteTime(device.lastSeenAt, i18n.language)})`
        : t('devices.neverSeen'),
    ],
    [t('devices.fields.createdAt'), absoluteTime(device.createdAt, i18n.language)],
    [
      t('devices.fields.preset'),
      device.presetId === null
        ? t('devices.noPreset')
        : (preset.data?.name ??
          (preset.isPending && preset.fetchStatus !== 'idle' ? t('common.loading') : device.presetId)),
    ],
    [
      t('devices.fields.groups'),
      device.groups.length ? (
        <Row gap={4} key="groups">
          {device.groups.map((group) => (
            <Badge key={group.id} variant="light" tt="none" size="sm">
              {group.name}
            </Badge>
          ))}
        </Row>
      ) : (
        t('devices.noGroups')
      ),
    ],
    ...(serviceAccounts && !canChooseServiceAccount
      ? ([
          [
            t('devices.serviceAccount.label'),
            <ServiceAccountName key="service-account" serviceClientId={device.serviceClientId} />,
          ],
        ] as [string, ReactNode][])
      : []),
  ];

  return (
    <Stack gap="md">
      <Table variant="vertical" layout="fixed" withTableBorder data-testid="device-facts">
        <Table.Tbody>
          {facts.map(([name, value]) => (
            <Table.Tr key={name}>
              <Table.Th w={160}>{name}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canChooseServiceAccount && (
        <ServiceAccountSelect key={device.serviceClientId ?? 'none'} device={device} />
      )}
      {canUpdate && <DeviceForm device={device} hideDescription={hideDescription} />}
      {device.latitude !== null && (
        <Anchor component={Link} to={`/devicemap?focus=${device.id}`} size="sm">
          {t('devices.showOnMap')}
        </Anchor>
      )}
    </Stack>
  );
}

function DeviceForm({ device, hideDescription }: { device: DeviceDetail; hideDescription: boolean }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: valuesOf(device) });

  const save = useMutation({
    mutationFn: async (changes: DeviceChanges) =>
      updateDevice(await token(), organization.id, device.id, changes),
    onSuccess: async (saved) => {
      notifications.show({ color: 'green', message: t('devices.saved', { label: saved.label }) });
      form.reset({ ...valuesOf({ ...device, ...saved }) });
      await queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] });
    },
    onError: (error) => {
      if (hasStatus(error, 409) && form.formState.dirtyFields.label) {
        form.setError('label', { message: t('devices.errors.labelTaken') });
      } else if (hasStatus(error, 409) && form.formState.dirtyFields.alias) {
        form.setError('alias', { message: t('devices.errors.aliasTaken') });
      } else setFailure(deviceFailure(t, 'save', error));
    },
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const dirty = form.formState.dirtyFields;
    const latitude = String(values.latitude);
    const longitude = String(values.longitude);
    const problem = positionProblem(latitude, longitude);
    if (problem) {
      form.setError(latitude.trim() === '' ? 'latitude' : 'longitude', { message: t(problem) });
      return;
    }
    const positionChanged = dirty.latitude || dirty.longitude;
    const changes: DeviceChanges = {
      ...(dirty.label ? { label: values.label.trim() } : {}),
      ...(dirty.alias ? { alias: values.alias.trim() || null } : {}),
      ...(dirty.description ? { description: values.description } : {}),
      ...(dirty.tags ? { tags: parseTags(values.tags) } : {}),
      ...(positionChanged
        ? latitude.trim() === ''
          ? { latitude: null, longitude: null }
          : { latitude: Number(latitude), longitude: Number(longitude) }
        : {}),
    };
    if (Object.keys(changes).length > 0) save.mutate(changes);
  });

  return (
    <form noValidate onSubmit={submit} data-testid="device-form">
      <Stack gap="sm">
        <TextInput
          label={t('devices.fields.label')}
          required
          maxLength={120}
          error={form.formState.errors.label?.message}
          {...form.register('label', {
            validate: (value) => value.trim() !== '' || t('devices.validation.labelRequired'),
          })}
        />
        <TextInput
          label={t('devices.fields.alias')}
          maxLength={120}
          error={form.formState.errors.alias?.message}
          {...form.register('alias')}
        />
        {!hideDescription && (
          <Textarea
            label={t('devices.fields.description')}
            autosize
            minRows={2}
            maxLength={2000}
            {...form.register('description')}
          />
        )}
        <Controller
          control={form.control}
          name="tags"
          render={({ field }) => (
            <TagsInput
              label={t('devices.fields.tags')}
              description={t('devices.bulk.tagsHint')}
              value={field.value}
              onChange={field.onChange}
              maxTags={50}
            />
          )}
        />
        <Row grow align="flex-start">
          <Controller
            control={form.control}
            name="latitude"
            render={({ field, fieldState }) => (
              <NumberInput
                label={t('devices.fields.latitude')}
                value={field.value}
                onChange={(value) => {
                  form.clearErrors(['latitude', 'longitude']);
                  field.onChange(value);
                }}
                min={-90}
                max={90}
                decimalScale={6}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="longitude"
            render={({ field, fieldState }) => (
              <NumberInput
                label={t('devices.fields.longitude')}
                value={field.value}
                onChange={(value) => {
                  form.clearErrors(['latitude', 'longitude']);
                  field.onChange(value);
                }}
                min={-180}
                max={180}
                decimalScale={6}
                error={fieldState.error?.message}
              />
            )}
          />
        </Row>
        {failure && (
          <Alert color="red" title={t('devices.saveFailed')}>
            {failure}
          </Alert>
        )}
        <Row justify="space-between">
          <Button
            variant="subtle"
            size="xs"
            disabled={String(form.watch('latitude')) === '' && String(form.watch('longitude')) === ''}
            onClick={() => {
              form.setValue('latitude', '', { shouldDirty: true });
              form.setValue('longitude', '', { shouldDirty: true });
            }}
          >
            {t('devices.clearPosition')}
          </Button>
          <Row gap="xs">
            <Button
              variant="default"
              onClick={() => form.reset(valuesOf(device))}
              disabled={!form.formState.isDirty}
            >
              {t('devices.reset')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
              {t('devices.save')}
            </Button>
          </Row>
        </Row>
      </Stack>
    </form>
  );
}
