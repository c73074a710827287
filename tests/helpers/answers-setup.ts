/**
 * Vitest setup file (vitest.config.ts `setupFiles`): a test during which an answer broke the OpenAPI
 * document fails, even when the mismatch was thrown where nobody looked (checked-answers.ts), and each
 * test file adds its checked answers to the hardening table.
 */
import { afterAll, afterEach } from 'vitest';
import { fileLedger } from '../../testkit/checked-answers';
import { describeMismatch } from '../../testkit/openapi-answers';
import { recordTally } from '../hardening/tally';

function failOnMismatches(): void {
  const mismatches = fileLedger.takeUnreported();
  if (mismatches.length === 0) return;
  throw new Error(
    `${mismatches.length} answer(s) broke the OpenAPI document:\n${mismatches.map(describeMismatch).join('\n')}`,
  );
}

afterEach(failOnMismatches);
afterAll(() => {
  const { validated, mismatches } = fileLedger;
  if (validated > 0)
    recordTally('openapi answers', { answersValidated: validated, answerMismatches: mismatches });
  failOnMismatches();
});
