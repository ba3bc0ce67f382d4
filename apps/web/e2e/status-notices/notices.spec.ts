import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const FEED = '/svc/core/api/v1/status/issues';

test.describe('status notices (spec 2/4)', () => {
  test('incidents and maintenances show as 365x180 frames; a dismissed one stays away; the feed is polled every 3 minutes', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
      statusIssues: [
        { type: 'incident', status: 'investigating', title: 'MQTT ingestion delayed' },
        { type: 'maintenance', status: 'scheduled', title: 'Database upgrade tonight' },
      ],
    });
    await page.clock.install();
    const polls: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(FEED)) polls.push(Date.now());
    });
    await signInAs(page, tenant, 'user');
    await expectRoute(page, '/directaccess');

    const frames = page.getByTestId('status-notice');
    await expect(frames).toHaveCount(2);
    await expect(frames.filter({ hasText: 'MQTT ingestion delayed' })).toContainText('Incident');
    await expect(frames.filter({ hasText: 'Database upgrade tonight' })).toContainText('Maintenance');
    for (const frame of await frames.all()) {
      const box = await frame.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(365);
      expect(Math.round(box?.height ?? 0)).toBe(180);
    }

    const incident = frames.filter({ hasText: 'MQTT ingestion delayed' });
    await incident.getByRole('button', { name: 'Dismiss this notice' }).click();
    await expect(frames).toHaveCount(1);

    // The next poll (3 minutes later) does not bring the dismissed one back.
    const before = polls.length;
    await page.clock.runFor('03:00');
    await expect.poll(() => polls.length).toBeGreaterThan(before);
    await expect(frames).toHaveCount(1);

    // Nor does a new page.
    await page.reload();
    await expect(page.getByTestId('shell')).toBeVisible();
    await expect(frames).toHaveCount(1);
    await expect(frames.first()).toContainText('Database upgrade tonight');
    expect(errors).toEqual([]);
  });

  test('frames appear one after another, 200 ms apart', async ({ page, request }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
      statusIssues: [
        { type: 'incident', status: 'investigating', title: 'First' },
        { type: 'incident', status: 'investigating', title: 'Second' },
        { type: 'maintenance', status: 'scheduled', title: 'Third' },
      ],
    });
    // Records when each frame enters the page.
    await page.addInitScript({
      content: `
        window.noticeTimes = [];
        new MutationObserver(() => {
          const count = document.querySelectorAll('[data-testid="status-notice"]').length;
          while (window.noticeTimes.length < count) window.noticeTimes.push(performance.now());
        }).observe(document, { childList: true, subtree: true });`,
    });
    await signInAs(page, tenant, 'user');
    await expect(page.getByTestId('status-notice')).toHaveCount(3);
    const times = (await page.evaluate('window.noticeTimes')) as number[];
    expect(times).toHaveLength(3);
    const [first = 0, second = 0, third = 0] = times;
    // Each frame is on screen within its timer's task, and the next one's timer starts from then: never closer than
    // 200 ms (less the clock's millisecond), later when the page is busy.
    for (const gap of [second - first, third - second]) {
      expect(gap).toBeGreaterThanOrEqual(195);
      expect(gap).toBeLessThan(600);
    }
  });

  test('on a narrow screen (under 600 px) the frames take the width of the screen', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
      statusIssues: [{ type: 'incident', status: 'investigating', title: 'Narrow' }],
    });
    await page.setViewportSize({ width: 400, height: 800 });
    await signInAs(page, tenant, 'user');
    const frame = page.getByTestId('status-notice');
    await expect(frame).toBeVisible();
    const box = await frame.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(384);
    expect(Math.round(box?.x ?? 0)).toBe(8);
  });
});
