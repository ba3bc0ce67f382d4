import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { legacyLogout } from '../vpn-devices/legacy-session.ts';

/**
 * Spec 2/7: the remote-access sign-out lands here: the legacy session is ended (a POST to its logout), then the tab
 * closes (browsers only let script-opened tabs close; otherwise the message stays).
 */
export default function VpnLogoutPage() {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  useEffect(() => {
    let active = true;
    void legacyLogout()
      .catch(() => undefined)
      .finally(() => {
        if (!active) return;
        setDone(true);
        window.close();
      });
    return () => {
      active = false;
    };
  }, []);
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="xs">
        {!done && <Loader size="sm" aria-label={t('common.loading')} />}
        <Text data-testid="vpn-logout" data-done={done}>
          {t('vpnLogout.message')}
        </Text>
      </Stack>
    </Center>
  );
}
