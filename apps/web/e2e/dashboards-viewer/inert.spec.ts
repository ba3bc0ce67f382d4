import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const OWNER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'dashboards', scopes: ['READ', 'CREATE'] },
];

/** A script (and an image whose error handler alerts) in a text a user typed; each one named after its field. */
const evil = (where: string) => `<script>alert("${where}")</script><img src=x onerror=alert('${where}')>`;
/** Units hold at most 20 characters. */
const UNIT = '<svg onload=alert()>';

function scriptedDocument() {
  return {
    schemaVersion: 2,
    rootPageId: 'root',
    slots: [{ name: 'press', label: evil('slot label'), modelId: '{{model:Press}}' }],
    variables: [{ name: 'note', type: 'string', initial: evil('variable') }],
    pages: [
      {
        id: 'root',
        title: evil('root page'),
        widgets: [
          {
            id: 'text',
            type: 'text',
            title: evil('text title'),
            layout: { x: 0, y: 0, w: 8, h: 4 },
            options: { text: evil('text'), size: 'md' },
          },
          {
            id: 'speed',
            type: 'value',
            title: evil('value title'),
            layout: { x: 8, y: 0, w: 8, h: 4 },
            binding: { slot: 'press', path: '/line/speed' },
            options: { unit: UNIT },
          },
          {
            id: 'note',
            type: 'value',
            title: evil('variable title'),
            layout: { x: 16, y: 0, w: 8, h: 4 },
            binding: { variable: 'note' },
            options: {},
          },
          {
            id: 'button',
            type: 'button',
            title: evil('button title'),
            layout: { x: 0, y: 4, w: 8, h: 3 },
            action: { kind: 'setVariable', variable: 'note', value: evil('action value') },
            options: { label: evil('button label') },
          },
          {
            id: 'image',
            type: 'image',
            title: evil('image title'),
            layout: { x: 8, y: 4, w: 8, h: 6 },
            options: { asset: evil('asset name'), source: 'dashboard', fit: 'contain', alt: evil('alt') },
          },
          {
            id: 'table',
            type: 'table',
            title: evil('table title'),
            layout: { x: 16, y: 4, w: 8, h: 6 },
            bindings: [{ slot: 'press', path: `/${evil('path')}` }],
            options: {},
          },
        ],
      },
      { id: 'second', title: evil('second page'), widgets: [] },
    ],
  };
}

test('a dashboard with script in every text field renders inert: no dialog, no script, every text literal', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const fixture = (document: Record<string, unknown>) => ({
    organizations: [{ key: 'org', name: 'Press shop', iotEnabled: true }],
    users: [{ key: 'owner', memberships: [{ org: 'org', permissions: OWNER }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [{ path: '/line/speed', type: 'number' as const }],
        preset: 'Press PLC',
        devices: ['Press 1'],
        points: 0,
        intervalMs: 1000,
      },
    ],
    dashboards: [{ name: evil('dashboard name'), owner: 'owner', document }],
  });

  // A javascript: address in an iframe widget does not pass the schema: such a dashboard cannot even be stored.
  const withFrame = scriptedDocument();
  withFrame.pages[0]?.widgets.push({
    id: 'frame',
    type: 'iframe',
    title: 'Frame',
    layout: { x: 0, y: 12, w: 8, h: 6 },
    options: { url: 'javascript:alert(document.domain)' },
  } as never);
  await expect(seedTenant(page.request, fixture(withFrame))).rejects.toThrow(/widgets\/6\/options\/url/);

  const tenant = await seedTenant(page.request, fixture(scriptedDocument()));
  const id = tenant.dashboards[evil('dashboard name')];
  if (!id) throw new Error('the dashboard was not seeded');
  await signInAs(page, tenant, 'owner', `/dashboards/${id}`);

  await expect(page.getByTestId('dashboard-name')).toHaveText(evil('dashboard name'));
  await expect(page.getByTestId('widget-text')).toHaveText(evil('text'));
  for (const where of [
    'text title',
    'value title',
    'variable title',
    'button title',
    'image title',
    'table title',
  ]) {
    await expect(page.getByTestId('widget-title').getByText(evil(where), { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('tab', { name: evil('root page') })).toBeVisible();
  await expect(page.getByRole('tab', { name: evil('second page') })).toBeVisible();
  await expect(page.getByTestId('slot-picker-press')).toHaveValue('Press 1');
  await expect(page.getByText(evil('slot label'), { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: evil('button label') })).toBeVisible();
  await expect(page.locator('[data-widget-id="note"]').getByTestId('widget-value')).toHaveText(
    evil('variable'),
  );
  await expect(page.getByTestId('value-table')).toContainText(`/${evil('path')}`);
  // The image is missing: its name shows literally in the message.
  await expect(page.locator('[data-widget-id="image"]')).toContainText(evil('asset name'));

  // A button sets the variable to another scripted text: shown literally too.
  await page.getByRole('button', { name: evil('button label') }).click();
  await expect(page.locator('[data-widget-id="note"]').getByTestId('widget-value')).toHaveText(
    evil('action value'),
  );

  // Evaluated in the page (a string: the e2e project has no DOM types).
  const dom = (await page.evaluate(`(() => {
    const elements = [...document.querySelectorAll('*')];
    return {
      scripts: [...document.querySelectorAll('script')].filter(
        (script) => (script.textContent || '').includes('alert') || script.src.includes('alert'),
      ).length,
      handlers: elements.flatMap((element) =>
        [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => attribute.name),
      ),
      images: [...document.querySelectorAll('img')].map((image) => image.getAttribute('src') || ''),
      // The identity client's session-check frame is the portal's own; the dashboard has none.
      frames: document.querySelectorAll('[data-testid="dashboard-view"] iframe').length,
    };
  })()`)) as { scripts: number; handlers: string[]; images: string[]; frames: number };
  expect(dom.scripts).toBe(0);
  expect(dom.handlers).toEqual([]);
  expect(dom.images.filter((src) => src === 'x')).toEqual([]);
  expect(dom.frames).toBe(0);
  expect(dialogs).toEqual([]);
  // Only the refused asset address (400) or the missing asset (404) is expected.
  expect(errors.filter((error) => !/status of 40[04]/.test(error))).toEqual([]);
});
