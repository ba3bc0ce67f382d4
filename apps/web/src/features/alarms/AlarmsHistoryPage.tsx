import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { AlarmDrawer } from './AlarmDrawer.tsx';
import { AlarmsTable } from './AlarmsTable.tsx';
import { AlarmsTabs } from './AlarmsTabs.tsx';

/** Spec 2 /alarms/alarms-history: every alarm, closed ones included, by time range; the same detail and history. */
export default function AlarmsHistoryPage() {
  const { t } = useTranslation();
  const [alarmId, openAlarm] = useSearchParam('alarm');
  return (
    <Stack gap="md" data-testid="alarms-history-page">
      <AlarmsTabs />
      <Title order={1} size="h3">
        {t('alarms.historyTitle')}
      </Title>
      <AlarmsTable mode="history" onOpenAlarm={openAlarm} />
      <AlarmDrawer alarmId={alarmId} onClose={() => openAlarm(null)} />
    </Stack>
  );
}
