import { describe, expect, it } from 'vitest';
import {
  applicationFormProblems,
  applicationFormValues,
  applicationInput,
  applicationsFor,
  clientOsList,
  detectRemoteClientOs,
  portAfterProtocolChange,
  profileFormProblems,
  profileInput,
  shortcutFormProblems,
} from './application-form.ts';

const blank = applicationFormValues();

describe('application form', () => {
  it('starts as HTTP on port 80 at / for every system without a profile', () => {
    expect(blank).toEqual({
      name: '',
      profileId: '',
      protocol: 'HTTP',
      port: '80',
      path: '/',
      clientOs: [],
      description: '',
    });
  });

  it('loads a stored application', () => {
    expect(
      applicationFormValues({
        name: 'VNC',
        profileId: null,
        protocol: 'TCP',
        port: 5900,
        path: '',
        clientOs: ['Lin', 'Win'],
        description: 'panel',
      }),
    ).toEqual({
      name: 'VNC',
      profileId: '',
      protocol: 'TCP',
      port: '5900',
      path: '',
      clientOs: ['Lin', 'Win'],
      description: 'panel',
    });
  });

  it('names the wrong fields', () => {
    expect(applicationFormProblems({ ...blank, name: 'HMI' })).toEqual({});
    expect(applicationFormProblems({ ...blank, name: '', port: '0', path: 'index.html' })).toEqual({
      name: 'nameRequired',
      port: 'portRange',
      path: 'pathSlash',
    });
    // TCP has no path: whatever is left in the field does not matter.
    expect(
      applicationFormProblems({ ...blank, name: 'SSH', protocol: 'TCP', port: '22', path: 'x' }),
    ).toEqual({});
    expect(applicationFormProblems({ ...blank, name: 'a\\b', port: '65536' })).toEqual({
      name: 'nameSlash',
      port: 'portRange',
    });
  });

  it('follows the protocol with its default port', () => {
    expect(portAfterProtocolChange('HTTP', 'HTTPS', '80')).toBe('443');
    expect(portAfterProtocolChange('HTTPS', 'TCP', '443')).toBe('');
    expect(portAfterProtocolChange('HTTP', 'HTTPS', '8080')).toBe('8080');
  });

  it('sends the path only for HTTP(S), the systems in the contract order and null for no profile', () => {
    expect(
      applicationInput({ ...blank, name: ' HMI ', path: '', clientOs: ['Lin', 'Win'], description: ' x ' }),
    ).toEqual({
      name: 'HMI',
      profileId: null,
      protocol: 'HTTP',
      port: 80,
      path: '/',
      clientOs: ['Win', 'Lin'],
      description: 'x',
    });
    const tcp = applicationInput(
      { ...blank, name: 'SSH', protocol: 'TCP', port: '22', path: '/ignored', profileId: 'p1' },
      'a1',
    );
    expect(tcp).toEqual({
      id: 'a1',
      name: 'SSH',
      profileId: 'p1',
      protocol: 'TCP',
      port: 22,
      clientOs: [],
      description: '',
    });
  });

  it('lists client systems in the contract order', () => {
    expect(clientOsList(['iOS', 'Win', 'Mac', 'bogus'])).toEqual(['Win', 'Mac', 'iOS']);
  });
});

describe('profile form', () => {
  it('checks the name and builds create and edit bodies', () => {
    expect(profileFormProblems({ name: '', description: '', otpRequired: false })).toEqual({
      name: 'nameRequired',
    });
    expect(profileInput({ name: ' Plant ', description: ' d ', otpRequired: true })).toEqual({
      name: 'Plant',
      description: 'd',
      otpRequired: true,
    });
    expect(profileInput({ name: 'P', description: '', otpRequired: false }, 'id-1')).toMatchObject({
      id: 'id-1',
    });
  });
});

describe('shortcuts', () => {
  it('tells the remote-access system of a browser', () => {
    expect(detectRemoteClientOs('Mozilla/5.0 (X11; Linux x86_64) Chrome/140')).toBe('Linux');
    expect(detectRemoteClientOs('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)')).toBe('Mac');
    expect(detectRemoteClientOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('Win');
    expect(detectRemoteClientOs('')).toBe('Win');
  });

  it('offers the applications for every system and for the chosen one', () => {
    const apps = [
      { name: 'all', clientOs: [] },
      { name: 'win', clientOs: ['Win'] },
      { name: 'lin', clientOs: ['Lin', 'Mac'] },
    ];
    expect(applicationsFor(apps, 'Linux').map((app) => app.name)).toEqual(['all', 'lin']);
    expect(applicationsFor(apps, 'Win').map((app) => app.name)).toEqual(['all', 'win']);
    expect(applicationsFor(apps, 'Mac').map((app) => app.name)).toEqual(['all', 'lin']);
  });

  it('needs gateway, endpoint, application and a label without slashes', () => {
    expect(
      shortcutFormProblems({ gateway: '', endpoint: '', application: '', clientOs: 'Win', label: '' }),
    ).toEqual({
      gateway: 'gatewayRequired',
      endpoint: 'endpointRequired',
      application: 'applicationRequired',
      label: 'labelRequired',
    });
    expect(
      shortcutFormProblems({
        gateway: 'g',
        endpoint: 'e',
        application: 'a',
        clientOs: 'Linux',
        label: 'x/y',
      }),
    ).toEqual({ label: 'nameSlash' });
  });
});
