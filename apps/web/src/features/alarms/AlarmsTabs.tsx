import { useTranslation } from 'react-i18next';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';

/** Spec 2 /alarms and its sub-route alarms-history (both need the same permission). */
export function AlarmsTabs() {
  const { t } = useTranslation();
  return (
    <RouteTabs
      label={t('alarms.tabs.label')}
      tabs={[
        { path: '/alarms', label: t('alarms.tabs.open') },
        { path: '/alarms/alarms-history', label: t('alarms.tabs.history') },
      ]}
    />
  );
}
