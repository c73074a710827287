import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../scripts/openapi-build';

type Operation = { 'x-policy'?: { access: string }; security?: unknown[] };

describe('every operation declares its access policy', () => {
  const document = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
  );

  it('has operations to check', () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it.each(operations)('$id has x-policy and a matching security requirement', ({ op }) => {
    expect(op['x-policy']).toBeDefined();
    expect(['public', 'authenticated', 'admin']).toContain(op['x-policy']?.access);
    if (op['x-policy']?.access === 'public') expect(op.security).toEqual([]);
    else expect(op.security?.length).toBeGreaterThan(0);
  });
});
