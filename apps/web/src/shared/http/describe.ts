import type { TFunction } from 'i18next';
import { isHttpError } from './errors.ts';

/** A failed call in words the user can act on (spec 8's four kinds; the server's own text is never shown). */
export function describeError(t: TFunction, error: unknown): string {
  if (isHttpError(error)) {
    switch (error.kind) {
      case 'network':
        return t('errors.network');
      case 'aborted':
        return t('errors.aborted');
      case 'timeout':
        return t('errors.timeout', { seconds: Math.round((error.timeoutMs ?? 0) / 1000) });
      case 'status':
        return t('errors.status', { status: error.status });
    }
  }
  return t('errors.unexpected', { message: error instanceof Error ? error.message : String(error) });
}
