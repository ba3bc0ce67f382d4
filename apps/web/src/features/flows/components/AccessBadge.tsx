import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AccessLevel } from '../logic.ts';

const COLORS: Record<AccessLevel, string> = { owner: 'blue', 'r/w': 'teal', r: 'gray' };
const KEYS: Record<AccessLevel, string> = { owner: 'owner', 'r/w': 'editor', r: 'reader' };

/** The caller's access to a dashboard, flow or widget: owner, can edit, or read only. */
export function AccessBadge({ access }: { access: AccessLevel }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[access]} variant="light" tt="none" data-testid="access" data-access={access}>
      {t(`flows.access.${KEYS[access]}`)}
    </Badge>
  );
}
