import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A row's "Open" link, named after what it opens for assistive technology. */
export function OpenButton({ to, name }: { to: string; name: string }) {
  const { t } = useTranslation();
  return (
    <Button
      size="compact-sm"
      variant="light"
      component={Link}
      to={to}
      aria-label={t('directaccessLists.openLabel', { name })}
    >
      {t('directaccessLists.open')}
    </Button>
  );
}
