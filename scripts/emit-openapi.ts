/** `make openapi`: writes openapi/openapi.json from the route contracts. */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument, documentText, OPENAPI_JSON_PATH } from './openapi-build';

writeFileSync(OPENAPI_JSON_PATH, documentText(buildOpenApiDocument()));
console.log(`wrote ${OPENAPI_JSON_PATH}`);
