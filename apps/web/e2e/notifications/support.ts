import type { Page, Request } from '@playwright/test';

/**
 * The permission token of the entered organization, as the portal sends it to a service of `prefix` (a call inside
 * the organization, e.g. `/svc/audit/`; the organization selector's calls carry the plain access token).
 */
export function bearerFrom(page: Page, prefix: string): Promise<string> {
  return page
    .waitForRequest((request: Request) => {
      const header = request.headers().authorization;
      return request.url().includes(prefix) && typeof header === 'string' && header.startsWith('Bearer ');
    })
    .then((request) => request.headers().authorization?.slice('Bearer '.length) ?? '');
}

/** The clock time `hours` from now in UTC, as HH:00 (quiet hours that do not cover the test). */
export function utcHourFromNow(hours: number): string {
  return `${String((new Date().getUTCHours() + hours) % 24).padStart(2, '0')}:00`;
}
