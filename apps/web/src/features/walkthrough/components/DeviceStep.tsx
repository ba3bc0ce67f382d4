import { Alert, Button, Group, Loader, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { isFeatureEnabled } from '../../experimental/flags.ts';
import { activationFailure } from '../activation.ts';
import { type Activation, activateDevice, type DeviceLicense, fetchPresetOptions } from '../api.ts';

type Props = {
  licence: DeviceLicense;
  onBack: () => void;
  onActivated: (activation: Activation) => void;
};

type Values = { label: string; serialNumber: string; description: string; presetId: string | null };

/** Step 3: the new device's label (and serial number and description unless hidden by flags) and its preset. */
export function DeviceStep({ licence, onBack, onActivated }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  // Flags as they were when the page opened (changing flags reloads the portal).
  const [hideSerialNumber] = useState(() => isFeatureEnabled('hideDeviceSerialNumber'));
  const [hideDescription] = useState(() => isFeatureEnabled('hideDeviceDescription'));
  const labelInput = useRef<HTMLInputElement | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    defaultValues: { label: '', serialNumber: '', description: '', presetId: null },
  });
  const { ref: registerLabel, ...labelField } = form.register('label', {
    validate: (label) => label.trim() !== '' || t('walkthrough.device.labelRequired'),
  });

  useEffect(() => {
    labelInput.current?.focus();
  }, []);

  const presets = useQuery({
    queryKey: ['walkthrough', organization.id, 'presets'],
    queryFn: async ({ signal }) => fetchPresetOptions(await token(), organization.id, signal),
  });
  const presetData = useMemo(
    () =>
      (presets.data ?? []).map((preset) => ({
        value: preset.id,
        label: `${preset.name} (${preset.modelName})`,
      })),
    [presets.data],
  );

  const activate = useMutation({
    mutationFn: async (values: Values) =>
      activateDevice(await token(), organization.id, licence.vpn, {
        activationKey: licence.activationKey,
        label: values.label.trim(),
        ...(values.presetId ? { presetId: values.presetId } : {}),
        ...(!hideSerialNumber && values.serialNumber.trim()
          ? { serialNumber: values.serialNumber.trim() }
          : {}),
        ...(!hideDescription && values.description.trim() ? { description: values.description } : {}),
      }),
    onSuccess: onActivated,
    onError: (error) => {
      const refusal = activationFailure(t, error);
      if (refusal.field === 'label') form.setError('label', { message: refusal.message });
      else if (refusal.field === 'preset') form.setError('presetId', { message: refusal.message });
      else setFailure(refusal.message);
    },
  });

  return (
    <form
      noValidate
      data-testid="walkthrough-device-form"
      aria-busy={activate.isPending}
      onSubmit={form.handleSubmit((values) => {
        setFailure(null);
        activate.mutate(values);
      })}
    >
      <Stack gap="md" maw={640}>
        <TextInput
          label={t('walkthrough.device.label')}
          description={t('walkthrough.device.labelHint')}
          required
          maxLength={120}
          autoComplete="off"
          disabled={activate.isPending}
          error={form.formState.errors.label?.message}
          ref={(element) => {
            registerLabel(element);
            labelInput.current = element;
          }}
          {...labelField}
        />
        {!hideSerialNumber && (
          <TextInput
            label={t('walkthrough.device.serialNumber')}
            maxLength={120}
            autoComplete="off"
            disabled={activate.isPending}
            {...form.register('serialNumber')}
          />
        )}
        {!hideDescription && (
          <Textarea
            label={t('walkthrough.device.description')}
            autosize
            minRows={2}
            maxLength={2000}
            disabled={activate.isPending}
            {...form.register('description')}
          />
        )}
        <Controller
          control={form.control}
          name="presetId"
          render={({ field, fieldState }) => (
            <Select
              label={t('walkthrough.device.preset')}
              description={t('walkthrough.device.presetHint')}
              placeholder={
                presets.isPending ? t('walkthrough.device.presetsLoading') : t('walkthrough.device.noPreset')
              }
              data={presetData}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                form.clearErrors('presetId');
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              searchable
              clearable
              nothingFoundMessage={t('walkthrough.device.noPreset')}
              disabled={presets.isPending || activate.isPending}
              rightSection={presets.isPending ? <Loader size="xs" /> : undefined}
              error={fieldState.error?.message}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        {presets.isError && (
          <Alert color="yellow" data-testid="walkthrough-presets-failed">
            <Group justify="space-between" gap="sm">
              <Text size="sm">{t('walkthrough.device.presetsFailed')}</Text>
              <Button size="compact-sm" variant="light" onClick={() => presets.refetch()}>
                {t('common.retry')}
              </Button>
            </Group>
          </Alert>
        )}
        {failure && (
          <Alert
            color="red"
            title={t('walkthrough.errors.failed')}
            data-testid="walkthrough-activation-failed"
          >
            {failure}
          </Alert>
        )}
        {activate.isPending && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('walkthrough.device.activating')}</Text>
          </Group>
        )}
        <Group justify="space-between">
          <Button variant="default" onClick={onBack} disabled={activate.isPending}>
            {t('walkthrough.back')}
          </Button>
          <Button type="submit" loading={activate.isPending}>
            {t('walkthrough.device.activate')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
