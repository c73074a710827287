import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './shared/db/schema/index.ts',
  out: './shared/db/migrations',
});
