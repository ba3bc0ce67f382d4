import { modals } from '@mantine/modals';
import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Leaving the editor with unsaved changes asks first: a navigation inside the portal opens a confirmation, closing
 * or reloading the tab gets the browser's own question. `allowed` lets a navigation through without asking (after a
 * save that moves to the new dashboard's address).
 */
export function useLeaveGuard(dirty: boolean, allowed: RefObject<boolean>): void {
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
      modalId: 'dashboard-editor-leave',
      title: t('dashboardEditor.leave.title'),
      children: t('dashboardEditor.leave.message'),
      labels: { confirm: t('dashboardEditor.leave.confirm'), cancel: t('dashboardEditor.leave.stay') },
      confirmProps: { color: 'red', 'data-testid': 'editor-leave-confirm' },
      cancelProps: { 'data-testid': 'editor-leave-stay' },
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
      // Older browsers show the question only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty, allowed]);
}
