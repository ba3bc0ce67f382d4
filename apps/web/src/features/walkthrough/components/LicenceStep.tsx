import { Alert, Badge, Button, Code, Group, Stack, Table, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceLicense } from '../api.ts';

type Props = {
  licence: DeviceLicense;
  onBack: () => void;
  onNext: () => void;
};

const STATUS_COLOR = { AVAILABLE: 'teal', ACTIVE: 'blue', EXPIRED: 'gray' } as const;

/** Step 2: what the key's licence grants, before a device is created for it. */
export function LicenceStep({ licence, onBack, onNext }: Props) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement | null>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  return (
    <Stack gap="md" maw={640} data-testid="walkthrough-licence">
      <Title order={3} ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
        {t('walkthrough.licence.heading')}
      </Title>
      <Table variant="vertical" withTableBorder layout="fixed">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={200}>{t('walkthrough.licence.key')}</Table.Th>
            <Table.Td>
              <Code>{licence.activationKey}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('walkthrough.licence.status')}</Table.Th>
            <Table.Td>
              <Badge color={STATUS_COLOR[licence.status]} variant="light">
                {t(`walkthrough.licence.statuses.${licence.status}`)}
              </Badge>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('walkthrough.licence.kind')}</Table.Th>
            <Table.Td>
              {licence.vpn ? t('walkthrough.licence.kindVpn') : t('walkthrough.licence.kindDevice')}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('walkthrough.licence.term')}</Table.Th>
            <Table.Td>{t('walkthrough.licence.termValue')}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('walkthrough.licence.autorenew')}</Table.Th>
            <Table.Td>
              {licence.autorenew ? t('walkthrough.licence.yes') : t('walkthrough.licence.no')}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Alert color="teal">{t('walkthrough.licence.ready')}</Alert>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          {t('walkthrough.back')}
        </Button>
        <Button onClick={onNext}>{t('walkthrough.next')}</Button>
      </Group>
    </Stack>
  );
}
