import { canSeeScreen } from '@edgeport/permissions';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../shared/storage/keys.ts';
import { MemoryStorage } from '../test-support/memory-storage.ts';
import { organization } from '../test-support/organizations.ts';
import { EntryError, OrganizationSession } from './organization-session.ts';
import type { PermissionRequest, PermissionToken } from './rpt.ts';

function jwt(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none' })}.${encode(payload)}.sig`;
}

function rpt(permissions: object[]): string {
  return jwt({ authorization: { permissions } });
}

const PORTAL = { rsname: 'portal', scopes: ['ACCESS'] };
const DEVICES = { rsname: 'devices', scopes: ['READ'] };

function setup(tokens: string[]) {
  const storage = new MemoryStorage();
  const queue = [...tokens];
  const get = vi.fn(async (request: PermissionRequest): Promise<PermissionToken> => {
    const token = queue.shift();
    if (!token) throw new Error('Error exchanging token!!');
    return {
      token,
      permission: request.permission,
      scope: `org:${request.organizationId} app:*`,
      expiresAt: Date.now() + 300_000,
    };
  });
  const clear = vi.fn();
  const organizations = [organization({ id: 'a', iotEnabled: true }), organization({ id: 'b' })];
  const session = new OrganizationSession({
    loadOrganizations: vi.fn(async () => organizations),
    permissionTokens: { get, clear },
    storage,
  });
  return { session, storage, get, clear, organizations };
}

describe('entering an organization', () => {
  it('asks for the permission token of the organization and builds its ability', async () => {
    const { session, storage, get, organizations } = setup([rpt([PORTAL, DEVICES])]);
    const [a] = organizations;
    if (!a) throw new Error('fixture');
    const entered = await session.enter(a);
    expect(get).toHaveBeenCalledWith({ permission: 'res-a', organizationId: 'a' }, {});
    expect(canSeeScreen(entered.ability, 'devices', entered.features)).toBe(true);
    expect(canSeeScreen(entered.ability, 'roles', entered.features)).toBe(false);
    expect(session.getState()).toEqual({ entered, failure: undefined });
    expect(storage.getItem(STORAGE_KEYS.selectedOrganization)).toBe('a');
    expect(storage.getItem(STORAGE_KEYS.scope)).toBe('org:a app:*');
  });

  it('a token without permissions is the "no permissions" login error; the token is dropped', async () => {
    const { session, storage, clear, organizations } = setup([rpt([])]);
    storage.setItem(STORAGE_KEYS.selectedOrganization, 'b');
    const [, b] = organizations;
    if (!b) throw new Error('fixture');
    const failure = await session.enter(b).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EntryError);
    expect(session.getState().failure).toEqual({ kind: 'noPermissions', organizationId: 'b' });
    expect(clear).toHaveBeenCalled();
    expect(storage.getItem(STORAGE_KEYS.selectedOrganization)).toBeNull();
  });

  it('any other failure is the "reload" login error with the selection cleared and the scope removed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { session, storage, organizations } = setup([]);
    storage.setItem(STORAGE_KEYS.selectedOrganization, 'a');
    storage.setItem(STORAGE_KEYS.scope, 'org:a app:*');
    const [a] = organizations;
    if (!a) throw new Error('fixture');
    await expect(session.enter(a)).rejects.toBeInstanceOf(EntryError);
    expect(session.getState().failure).toEqual({ kind: 'failed', message: 'Error exchanging token!!' });
    expect(storage.getItem(STORAGE_KEYS.selectedOrganization)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.scope)).toBeNull();
    vi.restoreAllMocks();
  });

  it('shares one entry between concurrent callers', async () => {
    const { session, get, organizations } = setup([rpt([PORTAL]), rpt([PORTAL])]);
    const [a] = organizations;
    if (!a) throw new Error('fixture');
    const [first, second] = await Promise.all([session.enter(a), session.enter(a)]);
    expect(first).toBe(second);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('rebuilds the ability when a renewed permission token carries other permissions', async () => {
    const { session, organizations } = setup([rpt([PORTAL]), rpt([PORTAL, DEVICES])]);
    const [a] = organizations;
    if (!a) throw new Error('fixture');
    const entered = await session.enter(a);
    expect(canSeeScreen(entered.ability, 'devices', entered.features)).toBe(false);
    const listener = vi.fn();
    session.subscribe(listener);
    await session.permissionToken({ forceRefresh: true });
    const renewed = session.getState().entered;
    expect(listener).toHaveBeenCalled();
    expect(renewed && canSeeScreen(renewed.ability, 'devices', renewed.features)).toBe(true);
  });

  it('keeps the organization entered last as a preselection: it leads to the selector, not into it', async () => {
    const { session, storage } = setup([]);
    storage.setItem(STORAGE_KEYS.selectedOrganization, 'b');
    expect(await session.decide(undefined)).toEqual({ kind: 'select' });
    expect(session.lastEntered()).toBe('b');
    expect(await session.decide('nope')).toEqual({ kind: 'select', unknownOrganization: 'nope' });
  });
});
