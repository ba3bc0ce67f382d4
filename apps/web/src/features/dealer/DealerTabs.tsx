import { useTranslation } from 'react-i18next';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';

/** The dealer area's sub-routes (spec 2): clients and licences. */
export function DealerTabs() {
  const { t } = useTranslation();
  return (
    <RouteTabs
      label={t('dealer.tabs.label')}
      tabs={[
        { path: '/dealer/clients', label: t('dealer.tabs.clients') },
        { path: '/dealer/licenses', label: t('dealer.tabs.licenses') },
      ]}
    />
  );
}
