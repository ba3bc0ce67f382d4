import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';

/** Spec 2 /log and its sub-route failed-notifications, as tabs (the second only for who may read notifications). */
export function LogTabs() {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  return (
    <RouteTabs
      label={t('failedNotifications.tabs.label')}
      tabs={[
        { path: '/log', label: t('failedNotifications.tabs.audit') },
        {
          path: '/log/failed-notifications',
          label: t('failedNotifications.tabs.failed'),
          hidden: !ability.can('READ', 'notifications'),
        },
      ]}
    />
  );
}
