/** `make openapi`, first: writes the lists read off the module list (scripts/platform-lists.ts says why). */
import { writeFileSync } from 'node:fs';
import { platformListTexts } from './platform-lists';

for (const [path, text] of await platformListTexts()) {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
