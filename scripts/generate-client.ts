/** `make client`: generates the typed client's schema (openapi-typescript) from openapi/openapi.json. */
import { readFileSync, writeFileSync } from 'node:fs';
import { CLIENT_SCHEMA_PATH, clientSchemaText, OPENAPI_JSON_PATH } from './openapi-build';

const document = JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8')) as object;
writeFileSync(CLIENT_SCHEMA_PATH, await clientSchemaText(document));
console.log(`wrote ${CLIENT_SCHEMA_PATH}`);
