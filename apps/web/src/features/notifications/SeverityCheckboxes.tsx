import { Checkbox, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SEVERITIES } from '../alarms/severity.ts';

type Props = { label: string; description: string; value: string[]; onChange: (value: string[]) => void };

/** The alarm severities to pick from, the most severe first (a notification rule's or a trigger's filter). */
export function SeverityCheckboxes({ label, description, value, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <Checkbox.Group label={label} description={description} value={value} onChange={onChange}>
      <Group gap="md" mt={4}>
        {SEVERITIES.map((severity) => (
          <Checkbox key={severity} value={severity} label={t(`notificationRules.severities.${severity}`)} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}
