import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import {
  activationFailure,
  edgeConfigurationFile,
  fileSafe,
  keyFailure,
  licenceProblem,
  normalizeKey,
} from './activation.ts';
import type { Activation } from './api.ts';

const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const refused = (status: number, serverMessage = 'raw server text') =>
  new HttpError('status', { status, serverMessage });

describe('keys and licences', () => {
  it('normalizes typed keys', () => {
    expect(normalizeKey(' ep-7kqm 3xrt-w9hc ')).toBe('EP-7KQM3XRT-W9HC');
    expect(normalizeKey('   ')).toBe('');
  });

  it('tells a used or expired licence from an available one', () => {
    expect(licenceProblem({ status: 'AVAILABLE' })).toBeUndefined();
    expect(licenceProblem({ status: 'ACTIVE' })).toBe('used');
    expect(licenceProblem({ status: 'EXPIRED' })).toBe('expired');
  });

  it("describes a failed lookup without the server's text", () => {
    expect(keyFailure(t, refused(404))).toBe('walkthrough.errors.keyUnknown');
    expect(keyFailure(t, refused(403))).toBe('walkthrough.errors.forbidden');
    expect(keyFailure(t, refused(400))).toBe('walkthrough.errors.keyInvalid');
    expect(keyFailure(t, new HttpError('network'))).toBe('errors.network');
  });
});

describe('activationFailure', () => {
  it('puts a taken label on the label field and a missing preset on the preset field', () => {
    expect(
      activationFailure(t, refused(409, "label: another device of this organization is labelled 'x'")),
    ).toEqual({
      field: 'label',
      message: 'walkthrough.errors.labelTaken',
    });
    expect(activationFailure(t, refused(404, "body/presetId: preset 'p' not found"))).toEqual({
      field: 'preset',
      message: 'walkthrough.errors.presetGone',
    });
  });

  it('names used, expired, wrong-kind and unknown keys', () => {
    expect(
      activationFailure(t, refused(409, 'activationKey: this activation key is already in use')).message,
    ).toBe('walkthrough.errors.keyUsed');
    expect(activationFailure(t, refused(409, 'activationKey: this activation key has expired')).message).toBe(
      'walkthrough.errors.keyExpired',
    );
    expect(activationFailure(t, refused(409, 'activationKey: this is a VPN device licence')).message).toBe(
      'walkthrough.errors.keyKind',
    );
    expect(activationFailure(t, refused(404, 'activation key not found'))).toEqual({
      field: undefined,
      message: 'walkthrough.errors.keyUnknown',
    });
    expect(activationFailure(t, refused(500)).message).toContain('errors.status');
  });
});

describe('the edge configuration file', () => {
  it('makes labels safe file names', () => {
    expect(fileSafe('Line 1 / Press #2')).toBe('Line-1-Press-2');
    expect(fileSafe('../../etc/passwd')).toBe('etc-passwd');
    expect(fileSafe('Öfen-Süd')).toBe('Ofen-Sud');
    expect(fileSafe('***')).toBe('device');
  });

  it('adds the password to the edge configuration and names the file after the label', () => {
    const activation = {
      device: { id: 'd1', label: 'Press 1', organizationId: 'o1' },
      credentials: {
        username: 'd1',
        password: 'eps_secret',
        mqttUrl: 'mqtt://h:1883',
        mqttWebSocketUrl: 'ws://h/mqtt',
      },
      edgeConfiguration: {
        format: 'edgeport-edge-config/1',
        mqtt: { url: 'mqtt://h:1883', webSocketUrl: 'ws://h/mqtt', clientId: 'd1', username: 'd1', qos: 1 },
        topics: { data: 'devices/d1/data', setpoints: 'devices/d1/setpoints' },
      },
    } as unknown as Activation;
    const file = edgeConfigurationFile(activation);
    expect(file.name).toBe('edgeport-Press-1.json');
    const parsed = JSON.parse(file.content);
    expect(parsed.mqtt).toEqual({
      url: 'mqtt://h:1883',
      webSocketUrl: 'ws://h/mqtt',
      clientId: 'd1',
      username: 'd1',
      qos: 1,
      password: 'eps_secret',
    });
    expect(parsed.topics.data).toBe('devices/d1/data');
  });
});
