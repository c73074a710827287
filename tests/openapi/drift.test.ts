/**
 * The committed OpenAPI document, generated client and platform lists must match what the code produces.
 * When this fails: run `make client` (it runs `make openapi` first) and commit the result.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildOpenApiDocument,
  CLIENT_SCHEMA_PATH,
  clientSchemaText,
  documentText,
  OPENAPI_JSON_PATH,
} from '../../scripts/openapi-build';
import { platformListTexts } from '../../scripts/platform-lists';

describe('generated artefacts are up to date', () => {
  const document = buildOpenApiDocument();

  it(`${OPENAPI_JSON_PATH} matches the route contracts (run \`make openapi\`)`, () => {
    expect(readFileSync(OPENAPI_JSON_PATH, 'utf8')).toBe(documentText(document));
  });

  it(`${CLIENT_SCHEMA_PATH} matches the document (run \`make client\`)`, async () => {
    expect(readFileSync(CLIENT_SCHEMA_PATH, 'utf8')).toBe(await clientSchemaText(document));
  });

  it('the lists written out of the module list match it (run `make openapi`)', async () => {
    const texts = await platformListTexts();
    expect([...texts.keys()]).toHaveLength(3);
    for (const [path, text] of texts) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });

  it('detects a changed contract', async () => {
    const changed = JSON.parse(JSON.stringify(document)) as { paths: Record<string, unknown> };
    changed.paths['/api/extra'] = { get: { responses: { 200: { description: 'x' } } } };
    expect(documentText(changed)).not.toBe(readFileSync(OPENAPI_JSON_PATH, 'utf8'));
    expect(await clientSchemaText(changed)).not.toBe(readFileSync(CLIENT_SCHEMA_PATH, 'utf8'));
  });
});
