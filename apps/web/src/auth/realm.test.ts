import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME } from '../shared/theme/portal-theme.ts';
import {
  baseHostUrl,
  DEFAULT_ACCOUNTS_REALM,
  DEFAULT_BASE_HOST,
  realmFromCookie,
  realmFromHostname,
  resolveRealm,
  resolveStartRealm,
} from './realm.ts';

describe('realm resolution', () => {
  it('takes the host-name prefix before .app.', () => {
    expect(realmFromHostname('acme.app.localhost')).toBe('acme');
    expect(realmFromHostname('Acme.App.Example.com')).toBe('acme');
    expect(resolveRealm('acme.app.localhost', 'realm=other')).toBe('acme');
  });

  it('ignores hosts without the marker or with nothing before it', () => {
    expect(realmFromHostname('localhost')).toBeUndefined();
    expect(realmFromHostname('app.localhost')).toBeUndefined();
    expect(realmFromHostname('.app.localhost')).toBeUndefined();
    expect(realmFromHostname('acme.apps.localhost')).toBeUndefined();
  });

  it('falls back to the realm cookie', () => {
    expect(resolveRealm('localhost', 'theme=dark; realm=acme; x=1')).toBe('acme');
    expect(resolveRealm('portal.example.com', 'realm=acme%2Dplant')).toBe('acme-plant');
    expect(realmFromCookie('realm=%E0%A4%A')).toBe('%E0%A4%A');
  });

  it('names no realm when neither the host nor the cookie does', () => {
    expect(resolveRealm('localhost', '')).toBeUndefined();
    expect(resolveRealm('localhost', 'realm=')).toBeUndefined();
    expect(resolveRealm('localhost', 'myrealm=acme; realmx=acme')).toBeUndefined();
  });
});

describe('start realm (spec 1 with the server lookup)', () => {
  it('checks a host-name realm with the server and takes its answer', async () => {
    const lookup = async (hostname: string) =>
      hostname === 'acme.app.example.com' ? { realm: 'acme' } : undefined;
    await expect(resolveStartRealm('acme.app.example.com', 'realm=other', lookup)).resolves.toEqual({
      kind: 'realm',
      realm: 'acme',
      source: 'host',
    });
    await expect(resolveStartRealm('nope.app.example.com', 'realm=other', lookup)).resolves.toEqual({
      kind: 'unknown',
      name: 'nope',
    });
  });

  it('takes the cookie without a host prefix, and nothing without either', async () => {
    const lookup = async () => {
      throw new Error('not asked');
    };
    await expect(resolveStartRealm('example.com', 'realm=acme', lookup)).resolves.toEqual({
      kind: 'realm',
      realm: 'acme',
      source: 'cookie',
    });
    await expect(resolveStartRealm('example.com', '', lookup)).resolves.toEqual({ kind: 'none' });
  });

  it('names the base host of a realm host', () => {
    expect(baseHostUrl({ protocol: 'http:', hostname: 'nope.app.localhost', port: '8080' })).toBe(
      'http://localhost:8080/',
    );
    expect(baseHostUrl({ protocol: 'https:', hostname: 'acme.app.example.com', port: '' })).toBe(
      'https://example.com/',
    );
  });

  it('names the product cloud domain as the base host off an app subdomain (spec 9)', () => {
    expect(DEFAULT_BASE_HOST).toBe(`${DEFAULT_THEME.brandName.toLowerCase()}.cloud`);
    expect(baseHostUrl({ protocol: 'http:', hostname: 'portal.example.com', port: '8080' })).toBe(
      `https://${DEFAULT_BASE_HOST}/`,
    );
    expect(baseHostUrl({ protocol: 'http:', hostname: 'localhost', port: '' })).toBe(
      `https://${DEFAULT_BASE_HOST}/`,
    );
  });
});

describe('accounts realm (spec 9)', () => {
  it('defaults to the brand-named realm', () => {
    expect(DEFAULT_ACCOUNTS_REALM).toBe(DEFAULT_THEME.brandName.toLowerCase());
  });
});
