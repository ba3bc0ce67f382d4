import { describe, expect, it } from 'vitest';
import { organization } from '../test-support/organizations.ts';
import { decideEntry, destinationAfterSelection, selectorUrl } from './organization-entry.ts';

const alpha = organization({ id: 'a', resourceId: 'alpha' });
const beta = organization({ id: 'b', resourceId: 'beta' });

describe('organization entry decision (spec 4)', () => {
  it('enters the organization the URL names, by id or resourceId', () => {
    expect(decideEntry({ organizations: [alpha, beta], requested: 'b' })).toEqual({
      kind: 'enter',
      organization: beta,
    });
    expect(decideEntry({ organizations: [alpha, beta], requested: 'alpha' })).toEqual({
      kind: 'enter',
      organization: alpha,
    });
  });

  it('sends an unknown named organization to the selector, even when the user has only one', () => {
    expect(decideEntry({ organizations: [alpha], requested: 'zeta' })).toEqual({
      kind: 'select',
      unknownOrganization: 'zeta',
    });
  });

  it('chooses the only organization; several or none lead to the selector', () => {
    expect(decideEntry({ organizations: [alpha] })).toEqual({ kind: 'enter', organization: alpha });
    expect(decideEntry({ organizations: [alpha, beta] })).toEqual({ kind: 'select' });
    expect(decideEntry({ organizations: [] })).toEqual({ kind: 'select' });
  });
});

describe('selector address (spec 8)', () => {
  it('carries redirectTo and the original query', () => {
    expect(selectorUrl({ pathname: '/devices', search: '?tab=list&page=2' })).toBe(
      '/organization?redirectTo=%2Fdevices&tab=list&page=2',
    );
    expect(selectorUrl({ pathname: '/home', search: '' })).toBe('/organization?redirectTo=%2Fhome');
  });

  it('keeps a named organization as `org`, never a nested redirectTo', () => {
    expect(selectorUrl({ pathname: '/home', search: '?org=zeta&redirectTo=/x' })).toBe(
      '/organization?redirectTo=%2Fhome&org=zeta',
    );
    expect(selectorUrl({ pathname: '/home', search: '' }, 'zeta')).toBe(
      '/organization?redirectTo=%2Fhome&org=zeta',
    );
    expect(selectorUrl({ pathname: '/organization', search: '' })).toBe('/organization');
  });

  it('goes back to redirectTo with the forwarded query after the selection', () => {
    expect(destinationAfterSelection('?redirectTo=%2Fdevices&tab=list&org=zeta')).toBe('/devices?tab=list');
    expect(destinationAfterSelection('')).toBe('/home');
  });

  it('never leaves the portal through redirectTo', () => {
    expect(destinationAfterSelection('?redirectTo=https://evil.example')).toBe('/home');
    expect(destinationAfterSelection('?redirectTo=//evil.example')).toBe('/home');
  });
});
