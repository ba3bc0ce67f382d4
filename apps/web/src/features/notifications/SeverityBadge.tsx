import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Severity } from './rule-form.ts';

/** The colour of each severity, the same wherever a severity is shown. */
export const SEVERITY_COLORS: Record<Severity, string> = {
  CRITICAL: 'red',
  MAJOR: 'orange',
  MINOR: 'yellow',
  WARNING: 'blue',
  INFO: 'gray',
};

export function SeverityBadge({ severity }: { severity: Severity }) {
  const { t } = useTranslation();
  return (
    <Badge color={SEVERITY_COLORS[severity]} variant="light" size="sm" tt="none">
      {t(`notificationRules.severities.${severity}`)}
    </Badge>
  );
}
