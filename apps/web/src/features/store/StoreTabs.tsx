import { useTranslation } from 'react-i18next';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';

/** Spec 2 /store and /store/manage as two tabs. */
export function StoreTabs() {
  const { t } = useTranslation();
  return (
    <RouteTabs
      label={t('store.tabs.label')}
      tabs={[
        { path: '/store', label: t('store.tabs.catalogue') },
        { path: '/store/manage', label: t('store.tabs.manage') },
      ]}
    />
  );
}
