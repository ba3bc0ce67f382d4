import { readItem, STORAGE_KEYS, writeItem } from '../../shared/storage/keys.ts';

export const AGREEMENTS_PATH = '/agreements';

type GateInput = {
  sessionId: string;
  storage: Storage;
  hasPending: () => Promise<boolean>;
};

const checks = new Map<string, Promise<boolean>>();

/**
 * Spec 4: once per identity session, whether pending agreements should send the user to the agreements screen.
 * The answer is remembered for the session (in session storage, so a reload does not ask again) whatever it was:
 * a user who leaves the agreements screen is not sent back until the next sign-in. A failed check is only logged
 * and asked again on the next navigation.
 */
export function shouldShowAgreements({ sessionId, storage, hasPending }: GateInput): Promise<boolean> {
  if (readItem(storage, STORAGE_KEYS.agreementsChecked) === sessionId) return Promise.resolve(false);
  let check = checks.get(sessionId);
  if (!check) {
    check = hasPending().then(
      (pending) => {
        writeItem(storage, STORAGE_KEYS.agreementsChecked, sessionId);
        return pending;
      },
      (error: unknown) => {
        console.warn('agreements check failed', error);
        checks.delete(sessionId);
        return false;
      },
    );
    checks.set(sessionId, check);
  }
  return check;
}

/** The user is on the agreements screen: that is this session's one visit. */
export function markAgreementsShown(sessionId: string, storage: Storage): void {
  writeItem(storage, STORAGE_KEYS.agreementsChecked, sessionId);
}

/** Test seam: forget in-flight checks. */
export function resetAgreementChecks(): void {
  checks.clear();
}

export function agreementsUrl(destination: { pathname: string; search: string }): string {
  const params = new URLSearchParams({ redirectTo: `${destination.pathname}${destination.search}` });
  return `${AGREEMENTS_PATH}?${params}`;
}
