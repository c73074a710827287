/**
 * Platform accounts (SPEC.md "Platform accounts: /api/auth"): the logins every bot shares, made by QR
 * code, pasted cookie or SMS code and stored server-side. The credential itself (a cookie or token)
 * never appears in any answer.
 */
import { z } from '@hono/zod-openapi';
import { QR_PLATFORMS } from '../../shared/domain/platforms';
import { PlatformSchema } from '../../shared/domain/schemas';
import { errors, jsonBody, jsonResponse, PhraseCodeSchema, PhraseParamsSchema } from '../errors';
import { platformsNamed } from '../platform-prose';
import { defineRoute } from '../policy';
import { SuccessSchema } from './common';

const tags = ['Platform accounts'];
const manage = { access: 'authenticated', capability: 'platform.auth' } as const;
const read = { access: 'authenticated', nonGuest: true } as const;
const optionalText = (max: number) => z.string().max(max).optional();

export const QrPlatformSchema = z
  .enum(QR_PLATFORMS, { error: `platform must be one of ${QR_PLATFORMS.join(', ')} for a QR login` })
  .openapi('QrPlatform');

export const AccountStatusSchema = z
  .object({
    platform: PlatformSchema,
    loggedIn: z.boolean(),
    nickname: z
      .string()
      .optional()
      .openapi({
        description:
          "The account's name; for a platform played through a tool on this server instead of an account, " +
          "the tool's status, worded in the language of `Accept-Language`",
      }),
    avatarUrl: z.string().optional(),
    code: PhraseCodeSchema.optional().openapi({
      description:
        "Where `nickname` is a sentence of the server (a tool's status): the phrase it was worded from",
    }),
    params: PhraseParamsSchema.optional(),
  })
  .openapi('PlatformAccountStatus');

export const QrCodeSchema = z
  .object({
    qrUrl: z
      .string()
      .openapi({ description: 'What the code encodes (the platform login page), or its picture' }),
    qrImg: z.string().openapi({ description: 'The code as a PNG data URL (`data:image/png;base64,…`)' }),
    key: z.string().openapi({ description: 'Names this attempt when polling its status' }),
  })
  .openapi('QrCode');

export const QrStatusSchema = z
  .object({ status: z.enum(['waiting', 'scanned', 'confirmed', 'expired']) })
  .openapi('QrStatus');

export const QrKeySchema = z.string().min(1, 'key must not be empty').max(128);

export const getAccountStatus = defineRoute({
  method: 'get',
  path: '/api/auth/status',
  tags,
  summary: "Whether a platform's shared login works, and as whom",
  description:
    'A login the platform no longer accepts, and a platform without one, are `loggedIn: false`. A ' +
    'platform played through a tool on this server (yt-dlp) reports the tool (not installed: ' +
    '`loggedIn: false`, the nickname says so); the uploads are always logged in. 502 when the platform ' +
    'cannot be reached.',
  policy: read,
  request: { query: z.object({ platform: PlatformSchema }) },
  responses: {
    200: jsonResponse(AccountStatusSchema, 'The login status'),
    ...errors(400, 401, 403, 502),
  },
});

export const startQrLogin = defineRoute({
  method: 'post',
  path: '/api/auth/qrcode',
  tags,
  summary: "Start a QR login of a platform's shared account",
  description:
    'Scan the code with the platform app, then poll `GET /api/auth/qrcode/status` with the key; an ' +
    'attempt expires after 5 minutes. 501 for a platform this build cannot log in by QR code yet.',
  policy: manage,
  request: { body: jsonBody(z.object({ platform: QrPlatformSchema }).strict()) },
  responses: {
    200: jsonResponse(QrCodeSchema, 'The code to scan'),
    ...errors(400, 401, 403, 501, 502),
  },
});

export const pollQrLogin = defineRoute({
  method: 'get',
  path: '/api/auth/qrcode/status',
  tags,
  summary: 'The state of a QR login attempt',
  description:
    '`confirmed` stores the login as the shared account of the platform (and stays `confirmed` on ' +
    'later polls); 404 for a key this platform has no attempt under.',
  policy: read,
  request: { query: z.object({ key: QrKeySchema, platform: QrPlatformSchema }) },
  responses: {
    200: jsonResponse(QrStatusSchema, 'The attempt state'),
    ...errors(400, 401, 403, 404, 501, 502),
  },
});

const PhoneSchema = z
  .string()
  .trim()
  .regex(/^\d{5,20}$/, 'phone must be 5 to 20 digits');

export const sendSmsCode = defineRoute({
  method: 'post',
  path: '/api/auth/sms/send',
  tags,
  summary: `Text a login code to a phone (${platformsNamed((f) => f.logins.includes('sms'))})`,
  description:
    'The phone number is a mainland China number (country code 86). 502 when the platform refuses.',
  policy: manage,
  request: { body: jsonBody(z.object({ phone: PhoneSchema }).strict()) },
  responses: {
    200: jsonResponse(SuccessSchema, 'The code was sent'),
    ...errors(400, 401, 403, 502),
  },
});

export const verifySmsCode = defineRoute({
  method: 'post',
  path: '/api/auth/sms/verify',
  tags,
  summary: `Log the shared ${platformsNamed((f) => f.logins.includes('sms'))} account in with a texted code`,
  description:
    'A code the platform refuses is a 400 with its reason; the platform refusing SMS logins outright (it ' +
    'wants a behaviour captcha, code 8821), or not being reached, is a 502 saying so (the first pointing ' +
    'to the QR login). Nothing is stored then.',
  policy: manage,
  request: {
    body: jsonBody(
      z
        .object({
          phone: PhoneSchema,
          code: z
            .string()
            .trim()
            .regex(/^\d{4,8}$/, 'code must be 4 to 8 digits'),
        })
        .strict(),
    ),
  },
  responses: {
    200: jsonResponse(SuccessSchema, 'The login is stored'),
    ...errors(400, 401, 403, 502),
  },
});

export const setCookieLogin = defineRoute({
  method: 'post',
  path: '/api/auth/cookie',
  tags,
  summary: "Store a pasted cookie as a platform's shared login",
  description:
    'The cookie is checked with the platform first; one it refuses is a 400 `cookieRefused` with the ' +
    'reason, naming the field `cookie`; a platform that cannot be reached (or did not answer in time) is a 502, ' +
    `as any platform failure. ${platformsNamed((f) => !f.logins.includes('cookie'))} take no cookie ` +
    '(400); 501 for a platform this build cannot log in yet.',
  policy: manage,
  request: {
    body: jsonBody(
      z
        .object({
          platform: PlatformSchema,
          cookie: z.string().trim().min(1, 'cookie must not be empty').max(16_384),
        })
        .strict(),
    ),
  },
  responses: {
    200: jsonResponse(SuccessSchema, 'The login is stored'),
    ...errors(400, 401, 403, 501, 502),
  },
});

export const testJellyfin = defineRoute({
  method: 'post',
  path: '/api/auth/jellyfin/test',
  tags,
  summary: `Test a media server (${platformsNamed((f) => f.logins.includes('server'))}) and its credentials`,
  description:
    'Empty or absent fields fall back to the stored `jellyfin` settings; nothing is stored. A server that ' +
    'cannot be reached or refuses the credentials is `{ok: false, error}` with the reason, not an HTTP error.',
  policy: manage,
  request: {
    body: jsonBody(
      z
        .object({
          serverUrl: optionalText(2048),
          authMode: z.enum(['password', 'apikey']).optional(),
          username: optionalText(256),
          password: optionalText(1024),
          apiKey: optionalText(1024),
          userId: optionalText(256),
        })
        .strict(),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        ok: z.boolean(),
        serverName: z.string().optional(),
        version: z.string().optional(),
        error: z.string().optional(),
      }),
      'The outcome of the test',
    ),
    ...errors(400, 401),
  },
});
