import { vpn } from '@edgeport/contract';
import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { realmOfHost } from '../../../http/principal.ts';
import type { ServiceDefinition } from '../../mount.ts';
import { LEGACY_COOKIE, LEGACY_SESSION_MS, legacyLogin, legacyLogout, legacyPing } from './service.ts';

/** Form logins are limited per client address, as brute-force protection on top of the account lockout. */
const LOGIN_RATE_LIMIT = { max: 20, timeWindow: '1 minute' };
const COOKIE_PATH = '/svc/vpn';

/** A refusal: `success: false` as the legacy client reads it, and the reason. */
const LegacyRefusal = Type.Object({ success: Type.Literal(false), message: Type.String() });
const answers = { 200: vpn.LegacyAnswer, 401: LegacyRefusal, 403: LegacyRefusal };

const REFUSALS = {
  invalid: 'wrong username or password',
  refused: 'the user has no remote access in this organization',
  noSession: 'no live remote-access session',
} as const;

/** The legacy remote-access login (spec 7): form login, keep-alive ping every 180 s, logout. Public routes. */
export const legacyVpnService: ServiceDefinition = {
  name: 'vpn',
  title: 'Edgeport remote-access legacy login',
  routes: async (app, { database, verifyToken, config }) => {
    const { db } = database;
    await app.register(formbody);
    const secure = config.publicScheme === 'https';

    const cookieOptions = { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure };

    async function login(
      request: FastifyRequest<{ Body: { username: string; password: string; ajax?: string } }>,
      reply: FastifyReply,
    ) {
      const result = await legacyLogin(
        db,
        verifyToken,
        request.body,
        realmOfHost(request.headers.host),
        request.ip,
      );
      if (result.outcome !== 'ok')
        return reply
          .code(result.outcome === 'refused' ? 403 : 401)
          .send({ success: false, message: REFUSALS[result.outcome] });
      reply.setCookie(LEGACY_COOKIE, result.token, { ...cookieOptions, maxAge: LEGACY_SESSION_MS / 1000 });
      if (request.body.ajax === 'true')
        return reply.code(200).send({ success: true, expiresAt: result.expiresAt.toISOString() });
      return reply.code(302).header('location', '/').send();
    }

    for (const [url, operationId] of [
      ['/login', 'legacyLogin'],
      ['/api/login', 'legacyApiLogin'],
    ] as const) {
      app.post(
        url,
        {
          config: { public: true, rateLimit: LOGIN_RATE_LIMIT },
          schema: {
            operationId,
            security: [],
            description:
              'Form login (application/x-www-form-urlencoded or JSON): username `{email}/{domain}`, password = the ' +
              "user's password or a valid access token of theirs. The user must belong to the domain's " +
              'organization (or inherit rights into it) and the organization must have VPN enabled (403 ' +
              "otherwise). Sets the HttpOnly cookie '" +
              LEGACY_COOKIE +
              "'; ajax=true answers 200 {success, expiresAt}, otherwise 302 to /. Wrong credentials: 401 " +
              '{success:false}. Limited to 20 attempts a minute per client.',
            body: vpn.LegacyLoginForm,
            response: { ...answers, 302: Type.Null({ description: 'Signed in: to the portal.' }) },
          },
        },
        login,
      );
    }

    app.get(
      '/ping',
      {
        config: { public: true },
        schema: {
          operationId: 'legacyPing',
          security: [],
          description:
            'Keep-alive (the portal calls it every 180 s): extends the cookie session by 10 minutes; 401 without a ' +
            'live session.',
          response: answers,
        },
      },
      async (request, reply) => {
        const live = await legacyPing(db, request.cookies[LEGACY_COOKIE]);
        if (!live) return reply.code(401).send({ success: false, message: REFUSALS.noSession });
        return { success: true, expiresAt: live.expiresAt.toISOString() };
      },
    );

    app.post(
      '/logout',
      {
        config: { public: true },
        schema: {
          operationId: 'legacyLogout',
          security: [],
          description: 'Ends the cookie session (if any) and clears the cookie.',
          response: answers,
        },
      },
      async (request, reply) => {
        await legacyLogout(db, request.cookies[LEGACY_COOKIE]);
        reply.clearCookie(LEGACY_COOKIE, cookieOptions);
        return { success: true };
      },
    );
  },
};
