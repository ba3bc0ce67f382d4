import { describe, expect, it } from 'vitest';
import { realmFromCookie, realmFromHostname, resolveRealm } from './realm.ts';

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
