import { Button, Group as Row, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { AlarmDrawer } from './AlarmDrawer.tsx';
import { AlarmsTable } from './AlarmsTable.tsx';
import { AlarmsTabs } from './AlarmsTabs.tsx';
import { RulesDrawer } from './RulesDrawer.tsx';

/**
 * Spec 2 /alarms: the organization's open alarms, live, with the severity summary, filters, the operator's steps on
 * chosen or all matching alarms, one alarm's detail and history, and the alarm rules (with CREATE or UPDATE alarms).
 */
export default function AlarmsPage() {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  const [alarmId, openAlarm] = useSearchParam('alarm');
  const [rulesOpen, setRulesOpen] = useState(false);
  const canManageRules = ability.can('CREATE', 'alarms') || ability.can('UPDATE', 'alarms');
  return (
    <Stack gap="md" data-testid="alarms-page">
      <AlarmsTabs />
      <Row justify="space-between" wrap="wrap">
        <Title order={1} size="h3">
          {t('alarms.title')}
        </Title>
        {canManageRules && (
          <Button variant="light" onClick={() => setRulesOpen(true)} data-testid="open-alarm-rules">
            {t('alarms.rules.open')}
          </Button>
        )}
      </Row>
      <AlarmsTable mode="open" onOpenAlarm={openAlarm} />
      <AlarmDrawer alarmId={alarmId} onClose={() => openAlarm(null)} />
      {canManageRules && <RulesDrawer opened={rulesOpen} onClose={() => setRulesOpen(false)} />}
    </Stack>
  );
}
