import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Alarm } from './api.ts';

/** ACTIVE while the condition holds, CLEARED once it no longer does. */
export function AlarmStatusBadge({ status }: { status: Alarm['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={status === 'ACTIVE' ? 'red' : 'teal'} variant="light" tt="none" data-status={status}>
      {t(`alarms.status.${status}`)}
    </Badge>
  );
}

/** Whether an acknowledgement (or reset) is still REQUIRED, was DONE, or is not required by the rule. */
export function RequirementText({ kind, value }: { kind: 'ack' | 'reset'; value: Alarm['ack'] }) {
  const { t } = useTranslation();
  if (value === 'NOT_REQUIRED')
    return (
      <Text size="sm" c="dimmed" data-state={value}>
        {t('alarms.requirement.NOT_REQUIRED')}
      </Text>
    );
  return (
    <Badge
      color={value === 'REQUIRED' ? 'orange' : 'teal'}
      variant={value === 'REQUIRED' ? 'outline' : 'light'}
      tt="none"
      data-state={value}
      data-testid={`${kind}-state`}
    >
      {t(`alarms.requirement.${kind}.${value}`)}
    </Badge>
  );
}
