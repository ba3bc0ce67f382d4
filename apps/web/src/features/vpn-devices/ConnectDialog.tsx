import { Button, Modal, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { connectGateway } from './api.ts';
import { detectClientOs } from './client-os.ts';
import { FailureAlert } from './FailureAlert.tsx';
import { isOtp } from './validation.ts';

type Props = {
  gateway: string;
  otpRequired: boolean;
  opened: boolean;
  onClose: () => void;
  onConnected: () => unknown;
};

/**
 * Connects the user to a gateway (spec 7 connect, onlyGateway=false). Where the gateway's application profile asks
 * for it, the user's six-digit one-time password goes along; the server's refusal is shown as it says it.
 */
export function ConnectDialog({ gateway, otpRequired, opened, onClose, onConnected }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [otp, setOtp] = useState('');
  const [touched, setTouched] = useState(false);
  const connect = useMutation({
    mutationFn: async () =>
      connectGateway(await token(), organization.resourceId, gateway, {
        clientOs: detectClientOs(),
        ...(otpRequired && { otp }),
      }),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('vpnDevices.connect.connected', { name: gateway }) });
      setOtp('');
      setTouched(false);
      await onConnected();
      onClose();
    },
  });
  const otpWrong = otpRequired && !isOtp(otp);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (otpWrong) return;
    connect.mutate();
  };
  const close = () => {
    connect.reset();
    setOtp('');
    setTouched(false);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('vpnDevices.connect.title', { name: gateway })}>
      <form onSubmit={submit} noValidate data-testid="connect-dialog">
        <Stack gap="sm">
          <Text size="sm">
            {otpRequired ? t('vpnDevices.connect.otpIntro') : t('vpnDevices.connect.intro')}
          </Text>
          {otpRequired && (
            <TextInput
              label={t('vpnDevices.connect.otp')}
              description={t('vpnDevices.connect.otpHint')}
              value={otp}
              onChange={(event) => setOtp(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              ff="monospace"
              w={200}
              data-autofocus
              error={touched && otpWrong ? t('vpnDevices.connect.otpInvalid') : undefined}
            />
          )}
          {connect.isError && <FailureAlert title={t('vpnDevices.connect.failed')} error={connect.error} />}
          <Row justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={connect.isPending}>
              {t('vpnDevices.connect.submit')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
