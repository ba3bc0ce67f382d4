import { useTranslation } from 'react-i18next';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';
import { useLegacyKeepAlive } from './use-legacy-keep-alive.ts';

/**
 * Spec 2 /vpn and its sub-routes endpoints, applications and profiles (all guarded by the vpn screen). Every VPN
 * screen shows these tabs, so they also keep the legacy remote-access session alive while one is open (spec 4/7).
 */
export function VpnTabs() {
  const { t } = useTranslation();
  useLegacyKeepAlive();
  return (
    <RouteTabs
      label={t('vpnDevices.tabs.label')}
      tabs={[
        { path: '/vpn', label: t('vpnDevices.tabs.devices') },
        { path: '/vpn/endpoints', label: t('vpnDevices.tabs.endpoints') },
        { path: '/vpn/applications', label: t('vpnDevices.tabs.applications') },
        { path: '/vpn/profiles', label: t('vpnDevices.tabs.profiles') },
      ]}
    />
  );
}
