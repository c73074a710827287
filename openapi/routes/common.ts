/** Small schemas several route files share. */
import { z } from '@hono/zod-openapi';
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
  .min(3, 'username must be 3 to 32 characters')
  .max(32, 'username must be 3 to 32 characters')
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'username may contain letters, digits, _ . and - only');

export const NewPasswordSchema = z
  .string()
  .min(8, 'password must be at least 8 characters')
  .max(256, 'password must be at most 256 characters');
