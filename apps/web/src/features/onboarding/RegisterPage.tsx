import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlainLayout } from '../../app/shell/PlainLayout.tsx';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type Agreement, fetchLatestAgreements } from '../agreements/api.ts';
import { registerOrganization } from './api.ts';
import {
  EMAIL_PATTERN,
  ORGANIZATION_NAME_MIN_LENGTH,
  PASSWORD_MIN_LENGTH,
  type RegisterFormValues,
  registrationFailure,
} from './register-form.ts';

const EMPTY_FORM: RegisterFormValues = {
  organizationName: '',
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  acceptedAgreementIds: [],
};

/** Spec 2/7: self-onboarding — a new organization, its first user as administrator, the accepted agreements. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const agreements = useQuery({ queryKey: ['agreements', 'latest'], queryFn: fetchLatestAgreements });
  return (
    <PlainLayout size="md">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('register.title')}
        </Title>
        <Text c="dimmed">{t('register.intro')}</Text>
        {agreements.isPending && (
          <Group gap="sm" aria-busy="true">
            <Loader size="sm" />
            <Text c="dimmed">{t('common.loading')}</Text>
          </Group>
        )}
        {agreements.isError && (
          <LoadFailed
            title={t('register.agreementsFailed')}
            message={describeError(t, agreements.error)}
            onRetry={() => void agreements.refetch()}
          />
        )}
        {agreements.data && <RegisterForm agreements={agreements.data} />}
        <Text size="sm">
          {t('register.haveAccount')}{' '}
          <Anchor component={Link} to="/home">
            {t('login.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </PlainLayout>
  );
}

function RegisterForm({ agreements }: { agreements: Agreement[] }) {
  const { t } = useTranslation();
  const form = useForm<RegisterFormValues>({ defaultValues: EMPTY_FORM, mode: 'onTouched' });
  const { register, handleSubmit, control, setError, formState, getValues } = form;
  const { errors } = formState;
  const submit = useMutation({
    mutationFn: ({ confirmPassword: _confirm, ...input }: RegisterFormValues) => registerOrganization(input),
    onError: (error) => {
      const failure = registrationFailure(error);
      if (failure.kind === 'emailExists') setError('email', { message: t('register.emailExists') });
      if (failure.kind === 'field') setError(failure.field, { message: t('register.notAccepted') });
    },
  });

  if (submit.isSuccess) {
    return (
      <Card withBorder p="xl" data-testid="registered">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h3">
            {t('register.doneTitle', { name: getValues('organizationName') })}
          </Title>
          <Text>{t('register.doneBody', { email: getValues('email') })}</Text>
          <Button component={Link} to="/home">
            {t('login.signIn')}
          </Button>
        </Stack>
      </Card>
    );
  }

  const required = { required: t('register.required') };
  const failure = submit.isError ? registrationFailure(submit.error) : undefined;
  return (
    <Card
      withBorder
      p="lg"
      component="form"
      noValidate
      onSubmit={handleSubmit((values) => submit.mutate(values))}
    >
      <Stack gap="sm">
        <TextInput
          label={t('register.organizationName')}
          autoComplete="organization"
          withAsterisk
          error={errors.organizationName?.message}
          {...register('organizationName', {
            ...required,
            minLength: {
              value: ORGANIZATION_NAME_MIN_LENGTH,
              message: t('register.tooShort', { count: ORGANIZATION_NAME_MIN_LENGTH }),
            },
          })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('register.firstName')}
            autoComplete="given-name"
            withAsterisk
            error={errors.firstName?.message}
            {...register('firstName', required)}
          />
          <TextInput
            label={t('register.lastName')}
            autoComplete="family-name"
            withAsterisk
            error={errors.lastName?.message}
            {...register('lastName', required)}
          />
        </SimpleGrid>
        <TextInput
          label={t('register.email')}
          type="email"
          autoComplete="email"
          withAsterisk
          error={errors.email?.message}
          {...register('email', {
            ...required,
            pattern: { value: EMAIL_PATTERN, message: t('register.invalidEmail') },
          })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label={t('register.password')}
            description={t('register.passwordHint', { count: PASSWORD_MIN_LENGTH })}
            autoComplete="new-password"
            withAsterisk
            error={errors.password?.message}
            {...register('password', {
              ...required,
              minLength: {
                value: PASSWORD_MIN_LENGTH,
                message: t('register.tooShort', { count: PASSWORD_MIN_LENGTH }),
              },
            })}
          />
          <PasswordInput
            label={t('register.confirmPassword')}
            autoComplete="new-password"
            withAsterisk
            error={errors.confirmPassword?.message}
            {...register('confirmPassword', {
              ...required,
              validate: (value) => value === getValues('password') || t('register.passwordsDiffer'),
            })}
          />
        </SimpleGrid>
        {agreements.length > 0 && (
          <Controller
            control={control}
            name="acceptedAgreementIds"
            rules={{
              validate: (ids) =>
                agreements.every((agreement) => ids.includes(agreement.id)) || t('register.mustAccept'),
            }}
            render={({ field, fieldState }) => (
              <Checkbox.Group
                label={t('register.agreements')}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              >
                <Stack gap={6} mt={6}>
                  {agreements.map((agreement) => (
                    <Group key={agreement.id} gap="xs" wrap="nowrap">
                      <Checkbox
                        value={agreement.id}
                        label={t('register.acceptOne', { title: agreement.title })}
                      />
                      {agreement.url && (
                        <Anchor href={agreement.url} target="_blank" rel="noreferrer" size="sm">
                          {t('agreements.read')}
                        </Anchor>
                      )}
                    </Group>
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
        )}
        {failure?.kind === 'other' && (
          <Alert color="red" role="alert">
            {t('register.failed', { reason: describeError(t, failure.error) })}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={submit.isPending} data-testid="register-submit">
            {t('register.submit')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
