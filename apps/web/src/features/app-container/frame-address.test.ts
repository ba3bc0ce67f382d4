import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  appHrefIn,
  appHrefPlace,
  frameAddress,
  hostDomainOf,
  originOf,
  renewalDelay,
  withHashAppHref,
  withPageAppHref,
} from './frame-address.ts';
import { pageOfLink, routeOfHostHref } from './guest.ts';

const APP = {
  entryUrl: 'http://apps.localhost:8080/samples/bridge-app/',
  origin: 'http://apps.localhost:8080',
};

async function jwtExpiringAt(exp: number | undefined): Promise<string> {
  const token = new SignJWT({ scope: 'org:1 app:*' }).setProtectedHeader({ alg: 'HS256' });
  if (exp !== undefined) token.setExpirationTime(exp);
  return token.sign(new TextEncoder().encode('a-test-secret-of-enough-length-123'));
}

describe('the app frame address', () => {
  it('starts at appHref when it is an address of the app origin, else at the entry address', () => {
    expect(frameAddress(APP, null)).toBe(APP.entryUrl);
    expect(frameAddress(APP, 'http://apps.localhost:8080/samples/bridge-app/#/two')).toBe(
      'http://apps.localhost:8080/samples/bridge-app/#/two',
    );
    for (const foreign of [
      'http://evil.localhost:8080/samples/bridge-app/',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      '/relative',
      'http://apps.localhost:8081/',
    ])
      expect(frameAddress(APP, foreign)).toBe(APP.entryUrl);
  });

  it('knows origins of http(s) addresses only', () => {
    expect(originOf('https://a.example.com/x?y#z')).toBe('https://a.example.com');
    expect(originOf('ftp://a.example.com/')).toBeUndefined();
    expect(originOf('')).toBeUndefined();
    expect(originOf(null)).toBeUndefined();
  });

  it('gives the product domain as the host domain', () => {
    expect(hostDomainOf('acme.app.example.com')).toBe('example.com');
    expect(hostDomainOf('demo.app.localhost')).toBe('localhost');
    expect(hostDomainOf('portal.example.com')).toBe('portal.example.com');
  });
});

describe('appHref in the page query or in the hash query (spec 4)', () => {
  const TWO = `${APP.entryUrl}#/two`;
  const THREE = `${APP.entryUrl}#/three?tab=a&b=1`;
  const query = (init: Record<string, string> = {}) => new URLSearchParams(init);
  /** The page query and the hash query of a portal address. */
  const queriesOf = (address: string) => {
    const url = new URL(address);
    return { page: url.searchParams, hash: new URLSearchParams(url.hash.split('?')[1] ?? '') };
  };

  it('keeps the place a link or reload used: the page query when only it has appHref, else the hash query', () => {
    expect(appHrefPlace(query({ appHref: TWO }), query())).toBe('page');
    expect(appHrefPlace(query(), query({ appHref: TWO }))).toBe('hash');
    expect(appHrefPlace(query({ appHref: TWO }), query({ appHref: THREE }))).toBe('hash');
    expect(appHrefPlace(query({ realm: 'acme' }), query())).toBe('hash');
  });

  it('reads appHref from the page query as from the hash query', () => {
    const fromPage = queriesOf(
      `http://acme.app.localhost:8080/?appHref=${encodeURIComponent(TWO)}#/store/container/7`,
    );
    expect(appHrefPlace(fromPage.page, fromPage.hash)).toBe('page');
    expect(appHrefIn('page', fromPage)).toBe(TWO);
    expect(frameAddress(APP, appHrefIn('page', fromPage))).toBe(TWO);
    const fromHash = queriesOf(
      `http://acme.app.localhost:8080/#/store/container/7?appHref=${encodeURIComponent(TWO)}`,
    );
    expect(appHrefPlace(fromHash.page, fromHash.hash)).toBe('hash');
    expect(appHrefIn('hash', fromHash)).toBe(TWO);
    expect(appHrefIn('page', fromHash)).toBeNull();
  });

  it('writes a new address to the page query, leaving the route and the other parameters as they are', () => {
    const portal = `http://acme.app.localhost:8080/?realm=acme&appHref=${encodeURIComponent(TWO)}#/store/container/7?x=1`;
    const moved = withPageAppHref(portal, THREE);
    const url = new URL(moved);
    expect(url.hash).toBe('#/store/container/7?x=1');
    expect(url.searchParams.get('realm')).toBe('acme');
    expect(appHrefIn('page', queriesOf(moved))).toBe(THREE);
    expect(appHrefIn('hash', queriesOf(moved))).toBeNull();
    const dropped = withPageAppHref(moved, null);
    expect(new URL(dropped).searchParams.has('appHref')).toBe(false);
    expect(new URL(dropped).hash).toBe('#/store/container/7?x=1');
  });

  it('writes a new address to the hash query, keeping its other parameters', () => {
    const before = query({ x: '1', appHref: TWO });
    const after = withHashAppHref(before, THREE);
    expect(after.get('appHref')).toBe(THREE);
    expect(after.get('x')).toBe('1');
    expect(before.get('appHref')).toBe(TWO);
  });
});

describe('renewing the token of the embedded app', () => {
  it('renews 29 s before the token expires, never sooner than in a second', async () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const exp = now / 1000 + 300;
    expect(renewalDelay(await jwtExpiringAt(exp), now)).toBe(271_000);
    expect(renewalDelay(await jwtExpiringAt(exp), now + 290_000)).toBe(1000);
    expect(renewalDelay(await jwtExpiringAt(undefined), now)).toBeUndefined();
    expect(renewalDelay('not-a-jwt', now)).toBeUndefined();
    expect(renewalDelay(undefined, now)).toBeUndefined();
  });
});

describe('the portal as guest', () => {
  it('asks the host for the page of a menu link', () => {
    expect(pageOfLink('#/devices')).toBe('device-manage');
    expect(pageOfLink('#/permission/groups')).toBe('iam-users');
    expect(pageOfLink('#/home')).toBe('home');
    expect(pageOfLink('#/store')).toBeUndefined();
    expect(pageOfLink('https://example.com/#/devices')).toBeUndefined();
    expect(pageOfLink(null)).toBeUndefined();
  });

  it('follows only addresses of its own origin that the host gives it', () => {
    const portal = 'http://demo.app.localhost:8080';
    expect(routeOfHostHref(`${portal}/#/devices`, portal)).toBe('/devices');
    expect(routeOfHostHref(`${portal}/#/log?x=1`, portal)).toBe('/log?x=1');
    expect(routeOfHostHref('http://evil.localhost:8080/#/devices', portal)).toBeUndefined();
    expect(routeOfHostHref(`${portal}/`, portal)).toBeUndefined();
    expect(routeOfHostHref('not a url', portal)).toBeUndefined();
  });
});
