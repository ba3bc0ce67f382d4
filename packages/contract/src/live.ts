import { type Static, Type } from 'typebox';
import { Alarm, AlarmEventKind } from './alarms.ts';

/**
 * The live feed at `/svc/live` (WebSocket, JSON text frames). The browser first sends `auth` with its permission
 * token (RPT) and organization, again whenever the token is refreshed; then `subscribe`/`unsubscribe` device ids.
 */
export const LiveAuth = Type.Object(
  {
    type: Type.Literal('auth'),
    token: Type.String({ minLength: 1, maxLength: 16_384 }),
    organization: Type.String({ minLength: 1, maxLength: 80 }),
  },
  { additionalProperties: false },
);
export const LiveSubscription = Type.Object(
  {
    type: Type.Union([Type.Literal('subscribe'), Type.Literal('unsubscribe')]),
    deviceIds: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
);
export const LiveClientMessage = Type.Union([LiveAuth, LiveSubscription]);
export type LiveClientMessage = Static<typeof LiveClientMessage>;

const Value = Type.Union([Type.Number(), Type.Boolean(), Type.String()]);

export const LiveReady = Type.Object({ type: Type.Literal('ready'), organizationId: Type.String() });
export const LiveValues = Type.Object({
  type: Type.Literal('values'),
  deviceId: Type.String(),
  ts: Type.Number({ description: 'epoch milliseconds of the values' }),
  values: Type.Record(Type.String(), Value, { description: 'by model path' }),
});
export const LiveStatus = Type.Object({
  type: Type.Literal('status'),
  deviceId: Type.String(),
  status: Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]),
  at: Type.Number(),
});
export const LiveError = Type.Object({
  type: Type.Literal('error'),
  message: Type.String(),
  deviceIds: Type.Optional(Type.Array(Type.String())),
});
/** An alarm of the session's organization changed (sent to every session of it, no subscription needed). */
export const LiveAlarm = Type.Object({ type: Type.Literal('alarm'), event: AlarmEventKind, alarm: Alarm });
export const LiveServerMessage = Type.Union([LiveReady, LiveValues, LiveStatus, LiveAlarm, LiveError]);
export type LiveServerMessage = Static<typeof LiveServerMessage>;
export type LiveValues = Static<typeof LiveValues>;
export type LiveStatus = Static<typeof LiveStatus>;
export type LiveAlarm = Static<typeof LiveAlarm>;

/** Close codes: the token is missing, invalid or expired (4401); the organization is not readable (4403). */
export const LIVE_CLOSE_UNAUTHORIZED = 4401;
export const LIVE_CLOSE_FORBIDDEN = 4403;
