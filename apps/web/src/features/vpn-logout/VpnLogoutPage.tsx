import { Center, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec 2: the remote-access sign-out lands here and the tab closes (browsers only let script-opened tabs close). */
export default function VpnLogoutPage() {
  const { t } = useTranslation();
  useEffect(() => {
    window.close();
  }, []);
  return (
    <Center mih="100vh" p="md">
      <Text data-testid="vpn-logout">{t('vpnLogout.message')}</Text>
    </Center>
  );
}
