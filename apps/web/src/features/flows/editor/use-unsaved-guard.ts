import { modals } from '@mantine/modals';
import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Leaving the flow editor with unsaved changes asks first: inside the portal a confirmation, when closing or
 * reloading the tab the browser's own question. `allowed` lets the move after a save through.
 */
export function useUnsavedGuard(dirty: boolean, allowed: RefObject<boolean>): void {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !allowed.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const asking = useRef(false);

  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    let answered = false;
    modals.openConfirmModal({
      modalId: 'flow-editor-leave',
      title: t('flows.editor.leave.title'),
      children: t('flows.editor.leave.message'),
      labels: { confirm: t('flows.editor.leave.confirm'), cancel: t('flows.editor.leave.stay') },
      confirmProps: { color: 'red', 'data-testid': 'flow-leave-confirm' },
      onConfirm: () => {
        answered = true;
        asking.current = false;
        blocker.proceed();
      },
      onCancel: () => {
        answered = true;
        asking.current = false;
        blocker.reset();
      },
      onClose: () => {
        asking.current = false;
        if (!answered) blocker.reset();
      },
    });
  }, [blocker, t]);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty, allowed]);
}
