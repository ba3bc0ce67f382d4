import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SEVERITY_COLOR, type Severity } from './severity.ts';

/** An alarm's severity in its colour (CRITICAL red, MAJOR orange, MINOR yellow, WARNING blue, INFO gray). */
export function SeverityBadge({ severity }: { severity: Severity }) {
  const { t } = useTranslation();
  return (
    <Badge color={SEVERITY_COLOR[severity]} variant="filled" autoContrast tt="none" data-severity={severity}>
      {t(`alarms.severity.${severity}`)}
    </Badge>
  );
}
