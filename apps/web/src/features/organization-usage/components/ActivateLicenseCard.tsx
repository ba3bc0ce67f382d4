import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { isHttpError } from '../../../shared/http/errors.ts';
import { activateCode, usageKeys, type Validation, validateCode } from '../api.ts';
import { useFormats } from '../format.ts';
import { isLicenseCode, normalizeCode } from '../license-code.ts';

type Checked = { code: string; validation: Validation | null };

/** "Activate licence code": the code is checked first (what it is, whether it can be activated), then activated. */
export function ActivateLicenseCard() {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<Checked | null>(null);
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });

  const check = useMutation({
    mutationFn: async (code: string): Promise<Checked> => {
      try {
        return { code, validation: await validateCode(await token(), organization.id, code) };
      } catch (error) {
        // An unknown code (or another organization's) is a 404: say so in words, not as a failure.
        if (isHttpError(error) && error.kind === 'status' && error.status === 404)
          return { code, validation: null };
        throw error;
      }
    },
    onSuccess: setChecked,
  });

  const activate = useMutation({
    mutationFn: async (code: string) => activateCode(await token(), organization.id, code),
    onSuccess: async (_license, code) => {
      notifications.show({
        color: 'green',
        message: t('organizationUsage.resources.activate.activated', { code }),
      });
      setChecked(null);
      form.reset({ code: '' });
      await queryClient.invalidateQueries({ queryKey: usageKeys.all(organization.id) });
    },
  });

  const reset = () => {
    setChecked(null);
    check.reset();
    activate.reset();
    form.setFocus('code');
  };

  const validation = checked?.validation;
  const canActivate = validation?.valid === true && validation.status === 'ISSUED';

  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="activate-heading">
      <Stack gap="xs">
        <Title order={3} size="h5" id="activate-heading">
          {t('organizationUsage.resources.activate.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('organizationUsage.resources.activate.intro', { name: organization.name })}
        </Text>
        <form
          noValidate
          onSubmit={form.handleSubmit(({ code }) => {
            activate.reset();
            check.mutate(normalizeCode(code));
          })}
        >
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              label={t('organizationUsage.resources.activate.codeLabel')}
              placeholder="LIC-XXXX-XXXX-XXXX"
              autoComplete="off"
              spellCheck={false}
              w={260}
              readOnly={checked !== null}
              error={form.formState.errors.code?.message}
              {...form.register('code', {
                validate: (value) => {
                  const code = normalizeCode(value);
                  if (code === '') return t('organizationUsage.resources.activate.required');
                  return isLicenseCode(code) || t('organizationUsage.resources.activate.malformed');
                },
              })}
            />
            {checked === null ? (
              <Button type="submit" mt={25} variant="light" loading={check.isPending}>
                {t('organizationUsage.resources.activate.check')}
              </Button>
            ) : (
              <Group gap="xs" mt={25}>
                {canActivate && (
                  <Button loading={activate.isPending} onClick={() => activate.mutate(checked.code)}>
                    {t('organizationUsage.resources.activate.activate')}
                  </Button>
                )}
                <Button variant="default" onClick={reset}>
                  {t('organizationUsage.resources.activate.reset')}
                </Button>
              </Group>
            )}
          </Group>
        </form>
        {check.isError && (
          <Alert color="red" title={t('organizationUsage.resources.activate.checkFailed')}>
            <Text size="sm">{describeError(t, check.error)}</Text>
          </Alert>
        )}
        {activate.isError && (
          <Alert color="red" title={t('organizationUsage.resources.activate.failed')}>
            <Text size="sm">{describeError(t, activate.error)}</Text>
          </Alert>
        )}
        {checked && (
          <CheckResult validation={checked.validation} formatDate={format.date} formatCount={format.count} />
        )}
      </Stack>
    </Card>
  );
}

function CheckResult({
  validation,
  formatDate,
  formatCount,
}: {
  validation: Validation | null;
  formatDate: (iso: string | null) => string;
  formatCount: (value: number) => string;
}) {
  const { t } = useTranslation();
  if (!validation || validation.status === null || !validation.product)
    return (
      <Alert color="orange" title={t('organizationUsage.resources.activate.invalidTitle')} role="status">
        <Text size="sm">{t('organizationUsage.resources.activate.unknown')}</Text>
      </Alert>
    );
  const product = validation.product.name;
  if (validation.status === 'ISSUED' && validation.valid)
    return (
      <Alert color="blue" title={t('organizationUsage.resources.activate.validTitle')} role="status">
        <Text size="sm">
          {t('organizationUsage.resources.activate.valid', {
            product,
            quantity: formatCount(validation.quantity ?? 1),
          })}
        </Text>
      </Alert>
    );
  if (validation.status === 'ACTIVE')
    return (
      <Alert color="green" title={t('organizationUsage.resources.activate.activeTitle')} role="status">
        <Text size="sm">
          {t('organizationUsage.resources.activate.active', {
            product,
            date: formatDate(validation.expiresAt),
          })}
        </Text>
      </Alert>
    );
  return (
    <Alert color="orange" title={t('organizationUsage.resources.activate.invalidTitle')} role="status">
      <Text size="sm">
        {t('organizationUsage.resources.activate.invalid', {
          status: t(`organizationUsage.resources.licenses.status.${validation.status}`),
        })}
      </Text>
    </Alert>
  );
}
