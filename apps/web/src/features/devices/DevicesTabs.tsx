import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';

/** Spec 2 /devices and its sub-route groups; the groups tab shows only with READ devicegroups. */
export function DevicesTabs() {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  return (
    <RouteTabs
      label={t('devices.tabs.label')}
      tabs={[
        { path: '/devices', label: t('devices.tabs.devices') },
        {
          path: '/devices/groups',
          label: t('devices.tabs.groups'),
          hidden: !ability.can('READ', 'devicegroups'),
        },
        {
          path: '/devices/models',
          label: t('dataModels.tabs.models'),
          hidden: !ability.can('READ', 'models'),
        },
        {
          path: '/devices/presets',
          label: t('dataModels.tabs.presets'),
          hidden: !ability.can('READ', 'models'),
        },
      ]}
    />
  );
}
