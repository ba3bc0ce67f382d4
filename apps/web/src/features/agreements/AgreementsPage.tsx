import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';
import { PlainLayout } from '../../app/shell/PlainLayout.tsx';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type Agreement, acceptAgreements, fetchPendingAgreements } from './api.ts';

function destinationOf(search: string): string {
  const target = new URLSearchParams(search).get('redirectTo');
  return target?.startsWith('/') && !target.startsWith('//') ? target : '/home';
}

/** Spec 2/4: the terms screen; accepting returns the user to where they were going. */
export default function AgreementsPage() {
  const { t } = useTranslation();
  const { session } = currentPortal();
  const navigate = useNavigate();
  const location = useLocation();
  const destination = destinationOf(location.search);
  const pending = useQuery({
    queryKey: ['agreements', 'pending'],
    queryFn: async () => fetchPendingAgreements(await session.accessToken()),
  });

  return (
    <PlainLayout size="md">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('agreements.title')}
        </Title>
        {pending.isPending && (
          <Group gap="sm" aria-busy="true">
            <Loader size="sm" />
            <Text c="dimmed">{t('agreements.loading')}</Text>
          </Group>
        )}
        {pending.isError && (
          <LoadFailed
            title={t('agreements.loadFailed')}
            message={describeError(t, pending.error)}
            onRetry={() => void pending.refetch()}
          />
        )}
        {pending.data && pending.data.length === 0 && (
          <Card withBorder>
            <Stack gap="sm" align="flex-start">
              <Text>{t('agreements.nothingPending')}</Text>
              <Button onClick={() => void navigate(destination, { replace: true })}>
                {t('common.continue')}
              </Button>
            </Stack>
          </Card>
        )}
        {pending.data && pending.data.length > 0 && (
          <AgreementForm
            agreements={pending.data}
            onAccepted={() => void navigate(destination, { replace: true })}
            onDecline={() => void session.signOut()}
          />
        )}
      </Stack>
    </PlainLayout>
  );
}

type FormProps = { agreements: Agreement[]; onAccepted: () => void; onDecline: () => void };

function AgreementForm({ agreements, onAccepted, onDecline }: FormProps) {
  const { t } = useTranslation();
  const { session } = currentPortal();
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  const accept = useMutation({
    mutationFn: async () =>
      acceptAgreements(
        await session.accessToken(),
        agreements.map((agreement) => agreement.id),
      ),
    onSuccess: onAccepted,
  });
  const allAccepted = agreements.every((agreement) => accepted.has(agreement.id));
  const toggle = (id: string, checked: boolean) =>
    setAccepted((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (allAccepted) accept.mutate();
      }}
    >
      <Stack gap="md">
        <Text c="dimmed">{t('agreements.intro', { count: agreements.length })}</Text>
        {agreements.map((agreement) => (
          <AgreementCard
            key={agreement.id}
            agreement={agreement}
            checked={accepted.has(agreement.id)}
            onChange={(checked) => toggle(agreement.id, checked)}
          />
        ))}
        {accept.isError && (
          <Alert color="red" role="alert">
            {t('agreements.acceptFailed', { reason: describeError(t, accept.error) })}
          </Alert>
        )}
        <Group justify="space-between">
          <Button variant="subtle" color="gray" onClick={onDecline}>
            {t('agreements.decline')}
          </Button>
          <Button
            type="submit"
            disabled={!allAccepted}
            loading={accept.isPending}
            data-testid="accept-agreements"
          >
            {t('agreements.accept')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type CardProps = { agreement: Agreement; checked: boolean; onChange: (checked: boolean) => void };

function AgreementCard({ agreement, checked, onChange }: CardProps) {
  const { t, i18n } = useTranslation();
  const published = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(
    new Date(agreement.publishedAt),
  );
  return (
    <Card withBorder data-testid="agreement" data-type={agreement.type}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{agreement.title}</Text>
          <Badge variant="light">{t(`agreements.types.${agreement.type}`)}</Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t('agreements.versionPublished', { version: agreement.version, date: published })}
        </Text>
        {agreement.url && (
          <Anchor href={agreement.url} target="_blank" rel="noreferrer" size="sm">
            {t('agreements.read')}
          </Anchor>
        )}
        <Checkbox
          label={t('agreements.acceptOne', { title: agreement.title })}
          checked={checked}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      </Stack>
    </Card>
  );
}
