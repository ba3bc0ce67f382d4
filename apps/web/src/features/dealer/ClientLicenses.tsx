import { Button, Code, Group as Row, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientDetail, License } from './api.ts';
import { formatCount, formatDate } from './format.ts';
import { IssueLicenseModal } from './IssueLicenseModal.tsx';
import { AutorenewSwitch, LicenseRowActions, LicenseStatusBadge } from './LicenseActions.tsx';

/** The licences a client holds, with "Issue licence" and each licence's renew, autorenew and revoke. */
export function ClientLicenses({ detail }: { detail: ClientDetail }) {
  const { t, i18n } = useTranslation();
  const [issuing, setIssuing] = useState(false);
  return (
    <Stack gap="sm">
      <Row justify="space-between">
        <Text size="sm" c="dimmed">
          {t('dealer.drawer.licensesHint', { name: detail.client.name })}
        </Text>
        <Button onClick={() => setIssuing(true)} data-testid="issue-license">
          {t('dealer.issue.open')}
        </Button>
      </Row>
      {detail.licenses.length === 0 ? (
        <Stack gap={4} align="center" py="lg" data-testid="client-licenses-empty">
          <Text fw={500}>{t('dealer.drawer.noLicenses')}</Text>
          <Text size="sm" c="dimmed">
            {t('dealer.drawer.noLicensesHint')}
          </Text>
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('dealer.drawer.licensesLabel', { name: detail.client.name })} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dealer.licenses.columns.code')}</Table.Th>
                <Table.Th>{t('dealer.licenses.columns.product')}</Table.Th>
                <Table.Th ta="right">{t('dealer.licenses.columns.quantity')}</Table.Th>
                <Table.Th>{t('dealer.licenses.columns.status')}</Table.Th>
                <Table.Th>{t('dealer.licenses.columns.expiresAt')}</Table.Th>
                <Table.Th>{t('dealer.licenses.columns.autorenew')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('dealer.licenses.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.licenses.map((license: License) => (
                <Table.Tr key={license.id} data-license-code={license.licenseCode}>
                  <Table.Td>
                    <Code style={{ whiteSpace: 'nowrap' }}>{license.licenseCode}</Code>
                  </Table.Td>
                  <Table.Td>{license.product.name}</Table.Td>
                  <Table.Td ta="right">{formatCount(license.quantity, i18n.language)}</Table.Td>
                  <Table.Td>
                    <LicenseStatusBadge status={license.status} />
                  </Table.Td>
                  <Table.Td>{formatDate(license.expiresAt, i18n.language)}</Table.Td>
                  <Table.Td>
                    <AutorenewSwitch license={license} />
                  </Table.Td>
                  <Table.Td>
                    <LicenseRowActions license={license} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <IssueLicenseModal client={issuing ? detail.client : null} onClose={() => setIssuing(false)} />
    </Stack>
  );
}
