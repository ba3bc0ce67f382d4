import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailed } from '../../../shared/ui/LoadFailed.tsx';
import { flowsFailure } from '../messages.ts';
import type { LoadedFlow } from '../use-flow.ts';

export function Waiting() {
  const { t } = useTranslation();
  return (
    <Center p="xl">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/**
 * A flow that is not ready (useFlow): loading, a document that does not read (its first error), or a failed call with
 * "Retry" and, unless `listLink` is false, a way back to the flows list.
 */
export function FlowProblem({
  loaded,
  listLink = true,
}: {
  loaded: Exclude<LoadedFlow, { state: 'ready' }>;
  listLink?: boolean;
}) {
  const { t } = useTranslation();
  if (loaded.state === 'loading') return <Waiting />;
  if (loaded.state === 'unreadable') {
    return (
      <Alert
        color="red"
        title={t('flows.viewer.unreadable', { name: loaded.flow.name })}
        data-testid="flow-error"
      >
        <Text size="sm">{loaded.errors[0]}</Text>
      </Alert>
    );
  }
  return (
    <LoadFailed
      title={t('flows.viewer.loadFailed')}
      message={flowsFailure(t, loaded.error)}
      onRetry={loaded.retry}
      testId="flow-error"
    >
      {listLink && (
        <Button size="xs" variant="subtle" component={Link} to="/flows">
          {t('flows.viewer.toList')}
        </Button>
      )}
    </LoadFailed>
  );
}
