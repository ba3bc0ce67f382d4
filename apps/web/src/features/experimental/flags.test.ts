import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { MemoryStorage } from '../../test-support/memory-storage.ts';
import { switchAllExperimentalFeatures } from './experimental-actions.ts';
import {
  allFlags,
  FEATURE_FLAGS,
  flagKey,
  isFeatureEnabled,
  readFeatureFlags,
  writeFeatureFlags,
} from './flags.ts';

beforeAll(async () => {
  await i18next.init({ lng: 'en-US', resources: { 'en-US': { translation: en } } });
});

describe('feature flags (spec 3)', () => {
  it('are all off by default except dataTable', () => {
    const flags = readFeatureFlags(new MemoryStorage());
    expect(FEATURE_FLAGS).toHaveLength(27);
    expect(Object.entries(flags).filter(([, on]) => on)).toEqual([['dataTable', true]]);
  });

  it('persist in local storage under one prefix', () => {
    const storage = new MemoryStorage();
    writeFeatureFlags({ highFreq: true, dataTable: false }, storage);
    expect(storage.getItem('edgeport.feature.highFreq')).toBe('true');
    expect(flagKey('dataTable')).toBe('edgeport.feature.dataTable');
    expect(isFeatureEnabled('highFreq', storage)).toBe(true);
    expect(isFeatureEnabled('dataTable', storage)).toBe(false);
    storage.setItem(flagKey('structs'), 'garbage');
    expect(isFeatureEnabled('structs', storage)).toBe(false);
  });
});

describe('enable / disable all (Ctrl+Alt+Shift+E / D)', () => {
  it('asks with the exact text, writes every flag and reloads', () => {
    const storage = new MemoryStorage();
    const confirm = vi.fn(() => true);
    const reload = vi.fn();
    expect(switchAllExperimentalFeatures(true, { confirm, reload, storage })).toBe(true);
    expect(confirm).toHaveBeenCalledWith('Do you want to enable all experimental feature?');
    expect(readFeatureFlags(storage)).toEqual(allFlags(true));
    expect(reload).toHaveBeenCalledTimes(1);

    switchAllExperimentalFeatures(false, { confirm, reload, storage });
    expect(confirm).toHaveBeenLastCalledWith('Do you want to disable all experimental feature?');
    expect(readFeatureFlags(storage)).toEqual(allFlags(false));
  });

  it('changes nothing and does not reload when the user declines', () => {
    const storage = new MemoryStorage();
    const reload = vi.fn();
    expect(switchAllExperimentalFeatures(true, { confirm: () => false, reload, storage })).toBe(false);
    expect(storage.length).toBe(0);
    expect(reload).not.toHaveBeenCalled();
  });
});
