import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import { keyFailure, licenceProblem, normalizeKey } from '../activation.ts';
import { type DeviceLicense, fetchKeyIssuing, fetchLicenseOfKey, issueActivationKey } from '../api.ts';

type Props = {
  initialKey: string;
  onFound: (licence: DeviceLicense) => void;
};

/**
 * Step 1: the activation key, checked against the organization's licences. The realm's operator can also issue a key
 * without a licence here (the server says who may); everyone else uses the keys of their licences.
 */
export function KeyStep({ initialKey, onFound }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const input = useRef<HTMLInputElement | null>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const form = useForm<{ activationKey: string }>({ defaultValues: { activationKey: initialKey } });
  const { ref: registerRef, ...keyField } = form.register('activationKey', {
    validate: (value) => normalizeKey(value) !== '' || t('walkthrough.key.required'),
  });

  useEffect(() => {
    input.current?.focus();
  }, []);

  const check = useMutation({
    mutationFn: async (key: string) => fetchLicenseOfKey(await token(), organization.id, key),
    onSuccess: (licence) => {
      const problem = licenceProblem(licence);
      if (problem === 'used')
        form.setError('activationKey', {
          message: licence.device
            ? t('walkthrough.errors.keyUsedBy', { label: licence.device.label })
            : t('walkthrough.errors.keyUsed'),
        });
      else if (problem === 'expired')
        form.setError('activationKey', { message: t('walkthrough.errors.keyExpired') });
      else onFound(licence);
    },
    onError: (error) => form.setError('activationKey', { message: keyFailure(t, error) }),
  });

  const mayCreate = ability.can('CREATE', 'devices');
  const issuing = useQuery({
    queryKey: ['walkthrough', 'key-issuing', organization.id],
    queryFn: async ({ signal }) => fetchKeyIssuing(await token(), organization.id, signal),
    enabled: mayCreate,
    staleTime: 5 * 60_000,
  });

  const generate = useMutation({
    mutationFn: async () => issueActivationKey(await token(), organization.id),
    onSuccess: (key) => {
      setIssued(key);
      form.setValue('activationKey', key);
      form.clearErrors('activationKey');
      input.current?.focus();
    },
  });

  // A refusal (the server decides) hides the button: keys without a licence are the realm operator's.
  const refused = generate.isError && hasStatus(generate.error, 403);
  const offerGenerate = mayCreate && issuing.data?.mayIssue === true && !refused;
  const licensedOnly = mayCreate && (issuing.data?.mayIssue === false || refused);

  return (
    <form
      noValidate
      data-testid="walkthrough-key-form"
      onSubmit={form.handleSubmit((values) => {
        const key = normalizeKey(values.activationKey);
        form.setValue('activationKey', key);
        check.mutate(key);
      })}
    >
      <Stack gap="md" maw={520}>
        <TextInput
          label={t('walkthrough.key.label')}
          description={t('walkthrough.key.hint')}
          placeholder={t('walkthrough.key.placeholder')}
          required
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          styles={{
            input: { fontFamily: 'var(--mantine-font-family-monospace)', textTransform: 'uppercase' },
          }}
          error={form.formState.errors.activationKey?.message}
          ref={(element) => {
            registerRef(element);
            input.current = element;
          }}
          {...keyField}
        />
        {issued && (
          <Alert color="teal" data-testid="walkthrough-key-issued">
            {t('walkthrough.key.generated', { key: issued })}
          </Alert>
        )}
        {generate.isError && (
          <Alert color="red" title={t('walkthrough.key.generateFailed')}>
            {refused ? t('walkthrough.key.generateRefused') : describeError(t, generate.error)}
          </Alert>
        )}
        <Group justify="space-between" align="flex-end" gap="sm">
          {offerGenerate ? (
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                {t('walkthrough.key.generateHint')}
              </Text>
              <Button
                variant="default"
                onClick={() => generate.mutate()}
                loading={generate.isPending}
                disabled={check.isPending}
              >
                {t('walkthrough.key.generate')}
              </Button>
            </Stack>
          ) : licensedOnly ? (
            <Text size="xs" c="dimmed" maw={320} data-testid="walkthrough-key-licensed-only">
              {t('walkthrough.key.licensedOnly')}
            </Text>
          ) : (
            <span />
          )}
          <Button type="submit" loading={check.isPending} disabled={generate.isPending}>
            {t('walkthrough.key.check')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
