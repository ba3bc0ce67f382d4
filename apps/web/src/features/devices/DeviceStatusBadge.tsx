import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isDeviceStatus, STATUS_COLOR } from './format.ts';

/** A device's connection status in the colour used for it everywhere. */
export function DeviceStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  if (!isDeviceStatus(status)) return <Badge variant="outline">{status}</Badge>;
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" tt="none" data-status={status}>
      {t(`devices.status.${status}`)}
    </Badge>
  );
}
