import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  NumberInput,
  Group as Row,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { isFeatureEnabled } from '../experimental/flags.ts';
import {
  type AccessGrant,
  disconnectGateway,
  executeAction,
  fetchGatewayEndpoints,
  fetchJsonActions,
  type GatewayDetail,
  type Opening,
  requestCredentials,
} from './api.ts';
import { ConnectDialog } from './ConnectDialog.tsx';
import { detectClientOs } from './client-os.ts';
import { FailureAlert } from './FailureAlert.tsx';
import { failureLine, vpnFailure } from './messages.ts';
import { GATEWAYS_KEY } from './query-keys.ts';
import { isOtp } from './validation.ts';

/** How often the connection state and the applications are refreshed while the tab is open. */
const ACCESS_REFRESH_MS = 10_000;

/**
 * Remote access to the gateway: the user's connection (connect with a one-time password where the profile asks for
 * one, disconnect) and what the user may open on its endpoints for this computer's system — web applications in a
 * new tab through `/remote/...`, other TCP applications through the companion CLI (its command shown once), and with
 * the vpnTcpOption flag any TCP port of an endpoint.
 */
export function GatewayAccess({ gateway }: { gateway: GatewayDetail }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [clientOs] = useState(detectClientOs);
  const [tcpOption] = useState(() => isFeatureEnabled('vpnTcpOption'));
  const [connecting, setConnecting] = useState(false);
  const [grant, setGrant] = useState<AccessGrant | null>(null);

  const actionsKey = [GATEWAYS_KEY, organization.id, 'actions', gateway.name, clientOs];
  const actions = useQuery({
    queryKey: actionsKey,
    queryFn: async ({ signal }) =>
      fetchJsonActions(await token(), organization.resourceId, gateway.name, clientOs, signal),
    refetchInterval: ACCESS_REFRESH_MS,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });

  const disconnect = useMutation({
    mutationFn: async () => disconnectGateway(await token(), organization.resourceId, gateway.name),
    onSuccess: async () => {
      setGrant(null);
      notifications.show({
        color: 'green',
        message: t('vpnDevices.connect.disconnected', { name: gateway.name }),
      });
      await refresh();
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('vpnDevices.connect.disconnectFailed'),
        message: failureLine(vpnFailure(t, error)),
      }),
  });

  const open = useMutation({
    mutationFn: async ({ opening }: { opening: Opening; popup: Window | null }) =>
      executeAction(await token(), organization.resourceId, {
        gatewayName: gateway.name,
        endpointName: opening.endpoint,
        actionName: opening.action,
        clientOs,
      }),
    onSuccess: (answer, { popup }) => {
      if (answer.kind === 'BROWSER' && answer.url) {
        const address = new URL(answer.url, window.location.origin).href;
        if (popup && !popup.closed) popup.location.href = address;
        else window.open(address, '_blank', 'noopener');
        return;
      }
      popup?.close();
      setGrant(answer);
    },
    onError: (error, { popup }) => {
      popup?.close();
      notifications.show({
        color: 'red',
        title: t('vpnDevices.access.openFailed'),
        message: failureLine(vpnFailure(t, error)),
      });
    },
  });

  const startOpening = (opening: Opening) => {
    // Opened right in the click (browsers block later pop-ups); it is sent to the address once the call answers.
    let popup: Window | null = null;
    if (opening.kind === 'BROWSER') {
      popup = window.open('', '_blank');
      if (popup) popup.opener = null;
    }
    open.mutate({ opening, popup });
  };

  const data = actions.data;
  const connected = data?.connected ?? false;
  const otpRequired = data?.otpRequired ?? gateway.otpRequired;
  const mustConnect = otpRequired && !connected;
  const offline = (data?.status ?? gateway.status) === 'OFFLINE';

  return (
    <Stack gap="lg" data-testid="gateway-access">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('vpnDevices.connect.heading')}
        </Title>
        <Row gap="sm">
          <Badge
            color={connected ? 'teal' : 'gray'}
            variant="light"
            tt="none"
            data-testid="connection-state"
            data-connected={connected}
          >
            {connected ? t('vpnDevices.connect.stateConnected') : t('vpnDevices.connect.stateDisconnected')}
          </Badge>
          {otpRequired && (
            <Badge color="orange" variant="light" tt="none">
              {t('vpnDevices.fields.otpRequired')}
            </Badge>
          )}
        </Row>
        <Row gap="xs">
          {connected ? (
            <Button variant="default" loading={disconnect.isPending} onClick={() => disconnect.mutate()}>
              {t('vpnDevices.connect.disconnect')}
            </Button>
          ) : (
            <Button onClick={() => setConnecting(true)} disabled={actions.isPending}>
              {t('vpnDevices.connect.open')}
            </Button>
          )}
        </Row>
        {offline && (
          <Text size="sm" c="dimmed">
            {t('vpnDevices.access.offlineHint')}
          </Text>
        )}
      </Stack>

      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('vpnDevices.access.heading')}
        </Title>
        {actions.isPending && (
          <Text size="sm" c="dimmed" aria-busy="true">
            {t('common.loading')}
          </Text>
        )}
        {actions.isError && (
          <LoadFailed
            title={t('vpnDevices.access.loadFailed')}
            message={failureLine(vpnFailure(t, actions.error))}
            onRetry={() => void actions.refetch()}
          />
        )}
        {data && data.items.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="no-applications">
            {t('vpnDevices.access.empty')}
          </Text>
        )}
        {data && data.items.length > 0 && (
          <Table withTableBorder aria-label={t('vpnDevices.access.tableLabel')} data-testid="openings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('vpnDevices.access.endpoint')}</Table.Th>
                <Table.Th>{t('vpnDevices.access.application')}</Table.Th>
                <Table.Th>{t('vpnDevices.access.port')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((opening) => (
                <Table.Tr key={`${opening.endpointId}/${opening.action}`} data-endpoint={opening.endpoint}>
                  <Table.Td>{opening.endpoint}</Table.Td>
                  <Table.Td>
                    <Row gap={6} wrap="nowrap">
                      <Text size="sm">{opening.action}</Text>
                      <Badge size="xs" variant="outline" tt="none">
                        {opening.kind === 'BROWSER'
                          ? t('vpnDevices.access.browser')
                          : t('vpnDevices.access.tcp')}
                      </Badge>
                    </Row>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {opening.protocol} {opening.port}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={t('vpnDevices.access.connectFirst')} disabled={!mustConnect}>
                      <Button
                        size="compact-sm"
                        variant="light"
                        disabled={mustConnect}
                        loading={open.isPending && open.variables?.opening === opening}
                        onClick={() => startOpening(opening)}
                        aria-label={t('vpnDevices.access.openLabel', {
                          application: opening.action,
                          endpoint: opening.endpoint,
                        })}
                      >
                        {t('vpnDevices.access.openButton')}
                      </Button>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>

      {grant && <TcpGrant grant={grant} onDismiss={() => setGrant(null)} />}

      {tcpOption && (
        <ForwardPort gateway={gateway} needsOtp={mustConnect} onGranted={(granted) => setGrant(granted)} />
      )}

      <ConnectDialog
        gateway={gateway.name}
        otpRequired={otpRequired}
        opened={connecting}
        onClose={() => setConnecting(false)}
        onConnected={refresh}
      />
    </Stack>
  );
}

/** A TCP session: the companion CLI command and its token, shown once (only a hash is kept on the server). */
function TcpGrant({ grant, onDismiss }: { grant: AccessGrant; onDismiss: () => void }) {
  const { t, i18n } = useTranslation();
  const expires = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(
    new Date(grant.expiresAt),
  );
  return (
    <Alert
      color="blue"
      title={t('vpnDevices.tcp.title', { endpoint: grant.endpoint, port: grant.port })}
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={onDismiss}
      data-testid="tcp-grant"
    >
      <Stack gap="xs">
        <Text size="sm">{t('vpnDevices.tcp.once')}</Text>
        {grant.command && (
          <Secret label={t('vpnDevices.tcp.command')} value={grant.command} testId="tcp-command" />
        )}
        {grant.token && <Secret label={t('vpnDevices.tcp.token')} value={grant.token} testId="tcp-token" />}
        {grant.applicationPassword && (
          <Secret
            label={t('vpnDevices.tcp.password')}
            value={grant.applicationPassword}
            testId="tcp-password"
          />
        )}
        <Text size="xs" c="dimmed">
          {t('vpnDevices.tcp.expires', { time: expires })}
        </Text>
      </Stack>
    </Alert>
  );
}

function Secret({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600}>
        {label}
      </Text>
      <Row gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid={testId}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('vpnDevices.tcp.copied') : t('vpnDevices.tcp.copy')}>
              <ActionIcon
                variant="light"
                color={copied ? 'teal' : undefined}
                onClick={copy}
                aria-label={t('vpnDevices.tcp.copyLabel', { what: label })}
              >
                {copied ? '✓' : '⧉'}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Row>
    </Stack>
  );
}

/** vpnTcpOption: forward any TCP port of one of the gateway's endpoints through the companion CLI. */
function ForwardPort({
  gateway,
  needsOtp,
  onGranted,
}: {
  gateway: GatewayDetail;
  needsOtp: boolean;
  onGranted: (grant: AccessGrant) => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [port, setPort] = useState<string | number>('');
  const [otp, setOtp] = useState('');
  const [touched, setTouched] = useState(false);
  const endpoints = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'endpoints', gateway.name],
    queryFn: async ({ signal }) =>
      fetchGatewayEndpoints(await token(), organization.resourceId, gateway.name, signal),
  });
  const request = useMutation({
    mutationFn: async (input: { endpoint: string; port: number; otp?: string }) =>
      requestCredentials(await token(), {
        domain: organization.resourceId,
        gateway: gateway.name,
        ...input,
      }),
    onSuccess: (granted) => {
      setOtp('');
      setTouched(false);
      onGranted(granted);
    },
  });
  const portNumber = typeof port === 'number' ? port : Number.NaN;
  const portWrong = !Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535;
  const otpWrong = needsOtp && !isOtp(otp);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!endpoint || portWrong || otpWrong) return;
    request.mutate({ endpoint, port: portNumber, ...(needsOtp && { otp }) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('vpnDevices.forward.title')}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('vpnDevices.forward.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('vpnDevices.forward.intro')}
        </Text>
        {endpoints.isError && (
          <Text size="sm" c="red">
            {describeError(t, endpoints.error)}
          </Text>
        )}
        <Row gap="sm" align="flex-start">
          <Select
            label={t('vpnDevices.forward.endpoint')}
            data={(endpoints.data?.items ?? []).map((item) => ({
              value: item.name,
              label: `${item.name} (${item.address})`,
            }))}
            value={endpoint}
            onChange={setEndpoint}
            searchable
            nothingFoundMessage={t('vpnDevices.forward.noEndpoints')}
            error={touched && !endpoint ? t('vpnDevices.forward.endpointRequired') : undefined}
            w={240}
          />
          <NumberInput
            label={t('vpnDevices.forward.port')}
            value={port}
            onChange={setPort}
            min={1}
            max={65535}
            allowDecimal={false}
            allowNegative={false}
            error={touched && portWrong ? t('vpnDevices.forward.portInvalid') : undefined}
            w={120}
          />
          {needsOtp && (
            <TextInput
              label={t('vpnDevices.connect.otp')}
              value={otp}
              onChange={(event) => setOtp(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              ff="monospace"
              w={140}
              error={touched && otpWrong ? t('vpnDevices.connect.otpInvalid') : undefined}
            />
          )}
        </Row>
        {request.isError && <FailureAlert title={t('vpnDevices.forward.failed')} error={request.error} />}
        <Row>
          <Button type="submit" variant="light" loading={request.isPending}>
            {t('vpnDevices.forward.submit')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
