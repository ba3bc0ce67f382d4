import { useTranslation } from 'react-i18next';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';

/** Spec 2 /organizations and its sub-routes resources and consumptions (all three need READ organizations). */
export function OrganizationTabs() {
  const { t } = useTranslation();
  return (
    <RouteTabs
      label={t('organizationUsage.tabs.label')}
      tabs={[
        { path: '/organizations', label: t('organizationUsage.tabs.organizations') },
        { path: '/organizations/resources', label: t('organizationUsage.tabs.resources') },
        { path: '/organizations/consumptions', label: t('organizationUsage.tabs.consumptions') },
      ]}
    />
  );
}
