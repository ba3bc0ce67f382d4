import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../test-support/memory-storage.ts';
import { rememberReturnTo, restoreReturnTo } from './return-to.ts';

describe('the hash route across the sign-in round trip', () => {
  it('is remembered and put back once the login answer is gone from the address', () => {
    const storage = new MemoryStorage();
    const history = { replaceState: vi.fn() };
    rememberReturnTo('#/devices?tab=list', storage);
    rememberReturnTo('#state=abc&session_state=x&code=123', storage);
    restoreReturnTo(storage, history, '');
    expect(history.replaceState).toHaveBeenCalledWith(null, '', '#/devices?tab=list');
    restoreReturnTo(storage, history, '');
    expect(history.replaceState).toHaveBeenCalledTimes(1);
  });

  it('keeps the page query the route came with (spec 4: appHref may live there)', () => {
    const storage = new MemoryStorage();
    const history = { replaceState: vi.fn() };
    const appHref = encodeURIComponent('http://apps.localhost:8080/samples/bridge-app/#/two');
    rememberReturnTo('#/store/container/7', storage, `?appHref=${appHref}`);
    rememberReturnTo('#state=abc&session_state=x&code=123', storage, '');
    restoreReturnTo(storage, history, '');
    expect(history.replaceState).toHaveBeenCalledWith(null, '', `?appHref=${appHref}#/store/container/7`);
  });

  it('ignores the root and login answers that follow a hash route', () => {
    const storage = new MemoryStorage();
    rememberReturnTo('#/', storage);
    rememberReturnTo('#/home?x=1&state=abc&code=1', storage);
    expect(storage.length).toBe(0);
  });

  it('never overrides an address that already names a route', () => {
    const storage = new MemoryStorage();
    const history = { replaceState: vi.fn() };
    rememberReturnTo('#/devices', storage);
    restoreReturnTo(storage, history, '#/organization');
    expect(history.replaceState).not.toHaveBeenCalled();
    expect(storage.length).toBe(0);
  });
});
