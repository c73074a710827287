/**
 * Personal music account (SPEC.md "Personal music account: /api/me/music"): the caller links their own
 * account of the platform whose facts allow a personal login, by QR code; FM the caller starts through
 * the API then plays as that account. The stored cookie never leaves the server and never replaces the
 * bots' shared login.
 */
import { z } from '@hono/zod-openapi';
import { PERSONAL_LOGIN_PLATFORM } from '../../shared/domain/platforms';
import { errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { QrCodeSchema, QrKeySchema, QrStatusSchema } from './platform-logins';

const tags = ['Personal music account'];
const policy = { access: 'authenticated', nonGuest: true } as const;

export const getPersonalLink = defineRoute({
  method: 'get',
  path: `/api/me/music/${PERSONAL_LOGIN_PLATFORM}/status`,
  tags,
  summary: `Whether you have linked your own ${PERSONAL_LOGIN_PLATFORM} account, and whether it still logs in`,
  description: '502 when NetEase cannot be reached to check a linked account.',
  policy,
  responses: {
    200: jsonResponse(
      z
        .object({
          linked: z.boolean(),
          loggedIn: z.boolean(),
          nickname: z.string().optional(),
          avatarUrl: z.string().optional(),
        })
        .openapi('PersonalLinkStatus'),
      'Your link',
    ),
    ...errors(401, 403, 502),
  },
});

export const startPersonalQr = defineRoute({
  method: 'post',
  path: `/api/me/music/${PERSONAL_LOGIN_PLATFORM}/qrcode`,
  tags,
  summary: `Start linking your own ${PERSONAL_LOGIN_PLATFORM} account by QR code`,
  description: 'Scan the code with the NetEase app, then poll `qrcode/status` with the key.',
  policy,
  responses: {
    200: jsonResponse(QrCodeSchema, 'The code to scan'),
    ...errors(401, 403, 502),
  },
});

export const pollPersonalQr = defineRoute({
  method: 'get',
  path: `/api/me/music/${PERSONAL_LOGIN_PLATFORM}/qrcode/status`,
  tags,
  summary: 'The state of your linking attempt',
  description:
    '`confirmed` links the account to you (never to the shared login). 404 for a key that is not one ' +
    'of your own attempts.',
  policy,
  request: { query: z.object({ key: QrKeySchema }) },
  responses: {
    200: jsonResponse(QrStatusSchema, 'The attempt state'),
    ...errors(400, 401, 403, 404, 502),
  },
});

export const deletePersonalLink = defineRoute({
  method: 'delete',
  path: `/api/me/music/${PERSONAL_LOGIN_PLATFORM}`,
  tags,
  summary: `Unlink your own ${PERSONAL_LOGIN_PLATFORM} account`,
  policy,
  responses: {
    200: jsonResponse(z.object({ ok: z.literal(true) }), 'Unlinked (also when nothing was linked)'),
    ...errors(401, 403),
  },
});
