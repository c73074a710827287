/** User management (SPEC.md "Users: /api/users"), admin only. */
import { z } from '@hono/zod-openapi';
import { errors, jsonBody, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import {
  BotScopeSchema,
  CapabilitySchema,
  IdParamSchema,
  NewPasswordSchema,
  RoleSchema,
  SuccessSchema,
  TimestampSchema,
  UsernameSchema,
} from './common';

export const UserSchema = z
  .object({ id: z.string(), username: z.string(), createdAt: TimestampSchema, role: RoleSchema })
  .openapi('User');

export const PermissionsSchema = z
  .object({ capabilities: z.array(CapabilitySchema), bots: BotScopeSchema })
  .openapi('Permissions');

const tags = ['Users'];
const policy = { access: 'admin' } as const;
const params = IdParamSchema;

export const listUsers = defineRoute({
  method: 'get',
  path: '/api/users',
  tags,
  summary: 'List accounts',
  policy,
  responses: {
    200: jsonResponse(z.object({ users: z.array(UserSchema) }).openapi('UserList'), 'Accounts'),
    ...errors(401, 403),
  },
});

export const createUser = defineRoute({
  method: 'post',
  path: '/api/users',
  tags,
  summary: 'Create an account',
  description: 'New members get the basic capabilities (player.control, player.queue) and no bots.',
  policy,
  request: {
    body: jsonBody(
      z.strictObject({
        username: UsernameSchema,
        password: NewPasswordSchema,
        role: RoleSchema.optional().openapi({ description: 'Default member' }),
      }),
    ),
  },
  responses: {
    201: jsonResponse(
      z.object({ id: z.string(), username: z.string(), role: RoleSchema }).openapi('CreatedUser'),
      'Created',
    ),
    ...errors(400, 401, 403, 409),
  },
});

export const deleteUser = defineRoute({
  method: 'delete',
  path: '/api/users/{id}',
  tags,
  summary: 'Delete an account with its sessions, API keys and personal music link',
  description: 'The last admin cannot be deleted (409).',
  policy,
  request: { params },
  responses: { 204: { description: 'Deleted' }, ...errors(401, 403, 404, 409) },
});

export const resetPassword = defineRoute({
  method: 'post',
  path: '/api/users/{id}/reset-password',
  tags,
  summary: "Set an account's password",
  description:
    "Revokes all the account's API keys and ends its sessions (resetting one's own keeps the current session).",
  policy,
  request: { params, body: jsonBody(z.strictObject({ newPassword: NewPasswordSchema })) },
  responses: { 204: { description: 'Password set' }, ...errors(400, 401, 403, 404) },
});

export const changeRole = defineRoute({
  method: 'patch',
  path: '/api/users/{id}/role',
  tags,
  summary: "Change an account's role",
  description: 'The last admin cannot be demoted (409).',
  policy,
  request: { params, body: jsonBody(z.strictObject({ role: RoleSchema })) },
  responses: { 204: { description: 'Role changed' }, ...errors(400, 401, 403, 404, 409) },
});

export const getPermissions = defineRoute({
  method: 'get',
  path: '/api/users/{id}/permissions',
  tags,
  summary: "An account's capabilities and bot scope",
  description: 'For an admin this is every capability and all bots, since admins pass every check.',
  policy,
  request: { params },
  responses: { 200: jsonResponse(PermissionsSchema, 'Permissions'), ...errors(401, 403, 404) },
});

export const putPermissions = defineRoute({
  method: 'put',
  path: '/api/users/{id}/permissions',
  tags,
  summary: "Replace an account's capabilities and bot scope",
  description: 'Unknown bot ids are refused (400).',
  policy,
  request: {
    params,
    body: jsonBody(z.strictObject({ capabilities: z.array(CapabilitySchema).max(16), bots: BotScopeSchema })),
  },
  responses: { 200: jsonResponse(SuccessSchema, 'Saved'), ...errors(400, 401, 403, 404) },
});
