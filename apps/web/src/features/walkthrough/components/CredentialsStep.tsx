import { Alert, Button, Code, CopyButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { saveFile } from '../../../shared/files/download.ts';
import { edgeConfigurationFile } from '../activation.ts';
import type { Activation } from '../api.ts';

type Props = {
  activation: Activation;
  onAnother: () => void;
};

/** Step 4: the device's credentials (the password only now), the edge configuration file and the way to the device. */
export function CredentialsStep({ activation, onAnother }: Props) {
  const { t, i18n } = useTranslation();
  const heading = useRef<HTMLHeadingElement | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { credentials, device, license, edgeConfiguration } = activation;

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const rows: { key: string; label: string; value: string; secret?: boolean }[] = [
    { key: 'username', label: t('walkthrough.credentials.username'), value: credentials.username },
    {
      key: 'password',
      label: t('walkthrough.credentials.password'),
      value: credentials.password,
      secret: true,
    },
    { key: 'mqttUrl', label: t('walkthrough.credentials.mqttUrl'), value: credentials.mqttUrl },
    {
      key: 'mqttWebSocketUrl',
      label: t('walkthrough.credentials.mqttWebSocketUrl'),
      value: credentials.mqttWebSocketUrl,
    },
    { key: 'dataTopic', label: t('walkthrough.credentials.dataTopic'), value: edgeConfiguration.topics.data },
    {
      key: 'setpointTopic',
      label: t('walkthrough.credentials.setpointTopic'),
      value: edgeConfiguration.topics.setpoints,
    },
  ];
  const expires = license.expiresAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(license.expiresAt))
    : null;

  const download = () => {
    const file = edgeConfigurationFile(activation);
    saveFile([file.content], 'application/json', file.name);
    setSaved(file.name);
  };

  return (
    <Stack gap="md" maw={760} data-testid="walkthrough-credentials">
      <Title order={3} ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
        {t('walkthrough.credentials.done', { label: device.label })}
      </Title>
      {expires && (
        <Text size="sm" c="dimmed">
          {t('walkthrough.credentials.expires', { date: expires })}
        </Text>
      )}
      <Alert color="yellow">{t('walkthrough.credentials.onlyOnce')}</Alert>
      <Table withTableBorder layout="fixed" verticalSpacing="xs">
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Th w={200} id={`walkthrough-${row.key}-label`}>
                {row.label}
              </Table.Th>
              <Table.Td>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <Code
                    data-testid={`walkthrough-${row.key}`}
                    aria-labelledby={`walkthrough-${row.key}-label`}
                    style={{ wordBreak: 'break-all' }}
                    color={row.secret ? 'yellow' : undefined}
                  >
                    {row.value}
                  </Code>
                  <CopyButton value={row.value}>
                    {({ copied, copy }) => (
                      <Button
                        size="compact-sm"
                        variant="light"
                        color={copied ? 'teal' : undefined}
                        onClick={copy}
                        aria-label={t('walkthrough.credentials.copy', { label: row.label })}
                      >
                        {copied
                          ? t('walkthrough.credentials.copied')
                          : t('walkthrough.credentials.copyShort')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group gap="sm">
        <Button onClick={download}>{t('walkthrough.credentials.download')}</Button>
        <Button component={Link} to={`/devices?device=${encodeURIComponent(device.id)}`} variant="default">
          {t('walkthrough.credentials.openDevice')}
        </Button>
        <Button variant="subtle" onClick={onAnother}>
          {t('walkthrough.credentials.another')}
        </Button>
      </Group>
      {saved && (
        <Text size="sm" c="dimmed" role="status">
          {t('walkthrough.credentials.downloaded', { name: saved })}
        </Text>
      )}
    </Stack>
  );
}
