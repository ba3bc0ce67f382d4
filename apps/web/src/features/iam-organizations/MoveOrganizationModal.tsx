import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { hasStatus } from '../../shared/http/errors.ts';
import { fetchImportTokenInfo, type ImportTokenInfo, moveOrganization } from './api.ts';
import { ModalFooter } from './ModalFooter.tsx';
import { commonFailure } from './messages.ts';
import type { ScopedAccess } from './scoped-access.ts';

type Props = { opened: boolean; onClose: () => void; access: ScopedAccess; onMoved: () => Promise<void> };

/**
 * Moves the selected organization under another one: paste the import token generated in the target, check where it
 * leads, confirm.
 */
export function MoveOrganizationModal({ opened, onClose, access, onMoved }: Props) {
  const { t } = useTranslation();
  const { organization } = access;
  const [target, setTarget] = useState<ImportTokenInfo>();
  const [failure, setFailure] = useState<string>();
  const [moving, setMoving] = useState(false);
  const form = useForm<{ token: string }>({ defaultValues: { token: '' } });
  const { reset } = form;

  useEffect(() => {
    if (opened) {
      reset({ token: '' });
      setTarget(undefined);
      setFailure(undefined);
    }
  }, [opened, reset]);

  const check = form.handleSubmit(async ({ token }) => {
    setFailure(undefined);
    setTarget(undefined);
    try {
      setTarget(await fetchImportTokenInfo(await access.token(), token.trim()));
    } catch (error) {
      form.setError('token', {
        message: hasStatus(error, 404) ? t('iamOrganizations.move.unknownToken') : commonFailure(t, error),
      });
    }
  });

  const move = async () => {
    if (!target) return;
    setMoving(true);
    setFailure(undefined);
    try {
      await moveOrganization(await access.token(), organization.id, form.getValues('token').trim());
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.move.done', {
          name: organization.name,
          target: target.organization.name,
        }),
      });
      await onMoved();
      onClose();
    } catch (error) {
      setFailure(hasStatus(error, 400) ? t('iamOrganizations.move.refused') : commonFailure(t, error));
    } finally {
      setMoving(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('iamOrganizations.move.title', { name: organization.name })}
      size="lg"
    >
      <Stack gap="sm">
        <Text size="sm">{t('iamOrganizations.move.explain')}</Text>
        <form onSubmit={(event) => void check(event)} noValidate>
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('iamOrganizations.move.token')}
              required
              data-autofocus
              autoComplete="off"
              style={{ flex: 1 }}
              error={form.formState.errors.token?.message}
              {...form.register('token', {
                validate: (value) => (value.trim() ? true : t('iamOrganizations.validation.tokenRequired')),
                onChange: () => setTarget(undefined),
              })}
            />
            <Button type="submit" variant="default" loading={form.formState.isSubmitting}>
              {t('iamOrganizations.move.check')}
            </Button>
          </Group>
        </form>
        {target && (
          <Alert color="blue" data-testid="move-target">
            {t('iamOrganizations.move.summary', {
              name: organization.name,
              target: target.organization.name,
            })}
          </Alert>
        )}
        <ModalFooter
          failure={failure}
          onCancel={onClose}
          submitLabel={t('iamOrganizations.move.submit')}
          onSubmit={() => void move()}
          disabled={!target}
          loading={moving}
        />
      </Stack>
    </Modal>
  );
}
