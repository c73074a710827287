/** Browser session routes (SPEC.md "Session"; payloads from DECISIONS.md). API keys are refused. */
import { z } from '@hono/zod-openapi';
import { errors, jsonBody, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { BotScopeSchema, CapabilitySchema, NewPasswordSchema, UsernameSchema } from './common';

export const SessionUserSchema = z
  .object({ id: z.string(), username: z.string(), role: z.enum(['admin', 'member', 'guest']) })
  .openapi('SessionUser');

const UserEnvelope = z.object({ user: SessionUserSchema }).openapi('SessionUserEnvelope');
const Credentials = z.strictObject({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(256),
});

export const GuestPermissionsSchema = z
  .object({
    addToQueue: z.boolean(),
    playNext: z.boolean(),
    playNow: z.boolean(),
    skip: z.boolean(),
    transport: z.boolean(),
    removeClear: z.boolean(),
    playMode: z.boolean(),
    playCollection: z.boolean(),
  })
  .openapi('GuestPermissions');

const tags = ['Session'];
const sessionPolicy = { access: 'public', sessionOnly: true } as const;

export const getNeedsSetup = defineRoute({
  method: 'get',
  path: '/api/session/needs-setup',
  tags,
  summary: 'Whether the first admin still has to be created',
  policy: sessionPolicy,
  responses: {
    200: jsonResponse(z.object({ needsSetup: z.boolean() }).openapi('NeedsSetup'), 'Setup state'),
    ...errors(403),
  },
});

export const postSetup = defineRoute({
  method: 'post',
  path: '/api/session/setup',
  tags,
  summary: 'Create the first admin (first run only) and sign in',
  description:
    'Race-safe: of concurrent calls exactly one succeeds. Limited to 3 attempts a minute per client.',
  policy: sessionPolicy,
  request: { body: jsonBody(z.strictObject({ username: UsernameSchema, password: NewPasswordSchema })) },
  responses: {
    201: jsonResponse(UserEnvelope, 'Admin created; session cookie set'),
    ...errors(400, 403, 409, 429),
  },
});

export const postLogin = defineRoute({
  method: 'post',
  path: '/api/session/login',
  tags,
  summary: 'Sign in with username and password',
  description: 'Limited to 5 attempts a minute per client.',
  policy: sessionPolicy,
  request: { body: jsonBody(Credentials) },
  responses: {
    200: jsonResponse(UserEnvelope, 'Signed in; session cookie set'),
    ...errors(400, 401, 403, 429),
  },
});

export const postGuest = defineRoute({
  method: 'post',
  path: '/api/session/guest',
  tags,
  summary: 'Start a guest session (guest mode must be enabled)',
  policy: sessionPolicy,
  responses: {
    200: jsonResponse(UserEnvelope, 'Guest session started; guest cookie set'),
    ...errors(403, 503),
  },
});

export const postLogout = defineRoute({
  method: 'post',
  path: '/api/session/logout',
  tags,
  summary: 'End the current session',
  policy: sessionPolicy,
  responses: { 204: { description: 'Signed out; cookies cleared' }, ...errors(403) },
});

export const getMe = defineRoute({
  method: 'get',
  path: '/api/session/me',
  tags,
  summary: 'The signed-in account with its capabilities and bot scope',
  description: 'A guest session answers 401 once guest mode is disabled.',
  policy: { access: 'authenticated', sessionOnly: true },
  responses: {
    200: jsonResponse(
      z
        .object({
          user: SessionUserSchema,
          capabilities: z.array(CapabilitySchema),
          bots: BotScopeSchema,
          guestPermissions: GuestPermissionsSchema.optional(),
        })
        .openapi('Me'),
      'The caller',
    ),
    ...errors(401, 403),
  },
});

export const postChangePassword = defineRoute({
  method: 'post',
  path: '/api/session/change-password',
  tags,
  summary: "Change one's own password",
  description:
    'Keeps the current session, ends every other session of the account and revokes all its API keys. ' +
    'A failed change revokes nothing.',
  policy: { access: 'authenticated', sessionOnly: true, nonGuest: true },
  request: {
    body: jsonBody(
      z.strictObject({ currentPassword: z.string().min(1).max(256), newPassword: NewPasswordSchema }),
    ),
  },
  responses: { 204: { description: 'Password changed' }, ...errors(400, 401, 403) },
});
