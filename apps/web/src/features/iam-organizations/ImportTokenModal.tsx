import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createImportToken, type ImportToken } from './api.ts';
import { commonFailure } from './messages.ts';
import { SecretReveal } from './SecretReveal.tsx';
import type { ScopedAccess } from './scoped-access.ts';

type Props = { opened: boolean; onClose: () => void; access: ScopedAccess };

type State =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'done'; token: ImportToken }
  | { kind: 'failed'; message: string };

/**
 * Generates a one-time import token of the selected organization: pasted into "Move" of another organization (or a
 * device), it moves that one into this organization. Shown once.
 */
export function ImportTokenModal({ opened, onClose, access }: Props) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'idle' });

  useEffect(() => {
    if (opened) setState({ kind: 'idle' });
  }, [opened]);

  const generate = async () => {
    setState({ kind: 'working' });
    try {
      setState({
        kind: 'done',
        token: await createImportToken(await access.token(), access.organization.id),
      });
    } catch (error) {
      setState({ kind: 'failed', message: commonFailure(t, error) });
    }
  };

  const expires = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  return (
    <Modal opened={opened} onClose={onClose} title={t('iamOrganizations.importToken.title')} size="lg">
      <Stack gap="sm">
        <Text size="sm">{t('iamOrganizations.importToken.explain', { name: access.organization.name })}</Text>
        {state.kind === 'done' ? (
          <SecretReveal
            label={t('iamOrganizations.importToken.label')}
            value={state.token.token}
            note={t('iamOrganizations.importToken.expires', { date: expires(state.token.expiresAt) })}
            testId="import-token"
          />
        ) : (
          <Group justify="flex-end">
            {state.kind === 'working' && <Loader size="sm" aria-label={t('common.loading')} />}
            <Button onClick={() => void generate()} disabled={state.kind === 'working'}>
              {t('iamOrganizations.importToken.generate')}
            </Button>
          </Group>
        )}
        {state.kind === 'failed' && (
          <Alert color="red" role="alert">
            {state.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
