/** Small schemas several route files share. */
import { z } from '@hono/zod-openapi';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '../../shared/domain/account-rules';
import { CAPABILITIES, ROLES } from '../../shared/domain/constants';

export const IdParamSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
export const BotIdParamSchema = z.object({
  botId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'botId', in: 'path' } }),
});

export const RoleSchema = z.enum(ROLES).openapi('Role');
export const CapabilitySchema = z.enum(CAPABILITIES).openapi('Capability');
export const BotScopeSchema = z
  .union([z.literal('all'), z.array(z.string().min(1).max(128)).max(1000)])
  .openapi('BotScope', { description: '`all`, or the ids of the bots granted' });

export const SuccessSchema = z.object({ success: z.literal(true) }).openapi('Success');

export const TimestampSchema = z
  .string()
  .openapi({ format: 'date-time', example: '2026-11-22T06:30:00.000Z' });

/** A username: 3-32 characters of letters, digits, `_`, `-` and `.`. */
export const UsernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN, `username must be ${USERNAME_MIN} to ${USERNAME_MAX} characters`)
  .max(USERNAME_MAX, `username must be ${USERNAME_MIN} to ${USERNAME_MAX} characters`)
  .regex(USERNAME_PATTERN, 'username may contain letters, digits, _ . and - only');

export const NewPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);
