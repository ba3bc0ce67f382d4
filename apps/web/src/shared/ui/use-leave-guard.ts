import { modals } from '@mantine/modals';
import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

export type LeaveGuardOptions = {
  /** The confirmation's modal id (one confirmation at a time). */
  modalId: string;
  /** The i18n key holding the confirmation's `title`, `message`, `confirm` and `stay` texts. */
  texts: string;
  /** The buttons' test ids: `{testId}-confirm` and `{testId}-stay`. */
  testId: string;
};

/**
 * Leaving an editor with unsaved changes asks first: a navigation inside the portal opens a confirmation, closing or
 * reloading the tab gets the browser's own question. `allowed` lets a navigation through without asking (after a
 * save that moves to the saved item's address).
 */
export function useLeaveGuard(
  dirty: boolean,
  allowed: RefObject<boolean>,
  { modalId, texts, testId }: LeaveGuardOptions,
): void {
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
      modalId,
      title: t(`${texts}.title`),
      children: t(`${texts}.message`),
      labels: { confirm: t(`${texts}.confirm`), cancel: t(`${texts}.stay`) },
      confirmProps: { color: 'red', 'data-testid': `${testId}-confirm` },
      cancelProps: { 'data-testid': `${testId}-stay` },
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
      // Closing the modal (Escape, the backdrop) without an answer means staying.
      onClose: () => {
        asking.current = false;
        if (!answered) blocker.reset();
      },
    });
  }, [blocker, t, modalId, texts, testId]);

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
