/**
 * The test helpers' answers, checked against the committed OpenAPI document (openapi-answers.ts). A
 * mismatch throws where the answer arrived, and is kept until the test ends, so one swallowed on the way
 * (an answer read by the daemon's chat client, or served to a browser through a listening port) still
 * fails the test: answers-setup.ts reports what the file's ledger keeps after each test and counts its
 * answers into the hardening table.
 */
import { type AnswerMismatch, committedDocumentValidator, describeMismatch } from './openapi-answers';

/** Answers checked and mismatches found, and the mismatches nobody has reported yet. */
export class AnswerLedger {
  validated = 0;
  mismatches = 0;
  private unreported: AnswerMismatch[] = [];

  recordMismatch(mismatch: AnswerMismatch): void {
    this.mismatches++;
    this.unreported.push(mismatch);
  }

  /** The mismatches since the last call (each is reported once). */
  takeUnreported(): AnswerMismatch[] {
    const taken = this.unreported;
    this.unreported = [];
    return taken;
  }
}

/** The ledger of the running test file, which answers-setup.ts reports. */
export const fileLedger = new AnswerLedger();

/**
 * `send` with every answer the document describes checked. `basePath` (BASE_PATH) is taken off a
 * request path that carries it, as the reverse proxy in front of the service does.
 */
export function checkingAnswers<Rest extends unknown[]>(
  send: (request: Request, ...rest: Rest) => Response | Promise<Response>,
  { basePath = '', ledger = fileLedger }: { basePath?: string; ledger?: AnswerLedger } = {},
): (request: Request, ...rest: Rest) => Promise<Response> {
  return async (request, ...rest) => {
    const { method } = request;
    const { pathname } = new URL(request.url);
    const response = await send(request, ...rest);
    const path = basePath && pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
    const verdict = await committedDocumentValidator().check(method, path, response);
    if (!verdict.described) return response;
    ledger.validated++;
    if (verdict.mismatch) {
      ledger.recordMismatch(verdict.mismatch);
      throw new Error(describeMismatch(verdict.mismatch));
    }
    return response;
  };
}

/** `fetch` (to a service on a port) with its answers checked. */
export const checkedFetch = checkingAnswers((request: Request) => fetch(request));
