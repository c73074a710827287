/**
 * Errors beside the field they concern, the same way in every form. A form names its fields (in the
 * order it shows them) with the sentence that says what a good value is; a check before sending and
 * a validation refusal about one of those fields (`code` field…, `params.field`) both put that
 * sentence under the input (a refusal of its own kind naming a field, such as a user name that is
 * taken, puts its own phrase there), mark the input `aria-invalid` and point its `aria-describedby` and
 * `aria-errormessage` at it, and move focus to the first field in error. Forms set `novalidate`: the
 * browser's own bubbles would speak the browser's language, not the page's.
 */
import { nextTick, reactive, useId } from 'vue';
import { type Refusal, refusedField } from '../api/client';
import { type MessageKey, t, tPhrase } from '../i18n';

/** A sentence of the catalog, worded when shown (so it follows a change of language). */
export interface FieldMessage {
  key: MessageKey;
  params?: Record<string, string | number>;
}
/** A refusal's own phrase from the server's catalog, also worded when shown. */
interface RefusalMessage {
  refusal: Refusal;
}

/** What a check found wrong with a field: its own sentence (`true`), another one, or nothing. */
export type FieldProblem = boolean | MessageKey | FieldMessage;

export interface FieldErrors<F extends string> {
  /** The input's attributes: its id, and while it is in error `aria-invalid` and the message's id. */
  attrs(field: F): Record<string, string | undefined>;
  /** The field's error in the page's language, '' when it has none. */
  message(field: F): string;
  errorId(field: F): string;
  /**
   * Sets the errors a check before sending found (clearing the others) and focuses the first field
   * in error; true when there is none, so the form may send.
   */
  validate(problems: Partial<Record<F, FieldProblem>>): Promise<boolean>;
  /** Puts one error beside its field (a refusal the page recognised itself) and focuses it. */
  show(field: F, problem?: FieldProblem): Promise<void>;
  /**
   * A server refusal of one of this form's fields, said beside it; false when the refusal concerns
   * no field shown here (the caller then says it in general).
   */
  showRefusal(refusal: Refusal): Promise<boolean>;
  clear(): void;
}

/**
 * `sentences`: each field of the form, in the order shown, with the sentence that says what it takes.
 * `serverNames`: the request fields the server may name, when they differ from the form's
 * (`{ newPassword: 'password', 'voiceDucking.volumePercent': 'duckingPercent' }`).
 */
export function useFieldErrors<F extends string>(
  sentences: Record<F, MessageKey>,
  serverNames: Partial<Record<string, NoInfer<F>>> = {},
): FieldErrors<F> {
  const order = Object.keys(sentences) as F[];
  const errors = reactive({}) as Partial<Record<F, FieldMessage | RefusalMessage>>;
  const prefix = useId();
  const inputId = (field: F) => `${prefix}-${field}`;
  const errorId = (field: F) => `${prefix}-${field}-error`;

  const asMessage = (field: F, problem: FieldProblem): FieldMessage | undefined => {
    if (problem === false) return undefined;
    if (problem === true) return { key: sentences[field] };
    return typeof problem === 'string' ? { key: problem } : problem;
  };

  const focusFirst = async () => {
    await nextTick();
    const first = order.find((field) => errors[field]);
    if (first) document.getElementById(inputId(first))?.focus();
  };

  /** The form field a server's field path concerns: `adminGroups.2` is the `adminGroups` input. */
  const fieldOf = (path: string): F | undefined => {
    for (let parts = path.split('.'); parts.length; parts = parts.slice(0, -1)) {
      const name = parts.join('.');
      const field = serverNames[name] ?? (name in sentences ? (name as F) : undefined);
      if (field) return field;
    }
    return undefined;
  };

  const clear = () => {
    for (const field of order) delete errors[field];
  };

  return {
    attrs: (field) => ({
      id: inputId(field),
      'aria-invalid': errors[field] ? 'true' : undefined,
      'aria-describedby': errors[field] ? errorId(field) : undefined,
      'aria-errormessage': errors[field] ? errorId(field) : undefined,
    }),
    message: (field) => {
      const error = errors[field];
      if (!error) return '';
      if ('key' in error) return t(error.key, error.params);
      const { code, params, error: text } = error.refusal;
      return code ? tPhrase({ code, params: params ?? {} }, text) : text;
    },
    errorId,
    async validate(problems) {
      clear();
      for (const field of order) {
        const message = asMessage(field, problems[field] ?? false);
        if (message) errors[field] = message;
      }
      await focusFirst();
      return !order.some((field) => errors[field]);
    },
    async show(field, problem = true) {
      const message = asMessage(field, problem);
      if (message) errors[field] = message;
      await focusFirst();
    },
    async showRefusal(refusal) {
      const path = refusedField(refusal);
      const field = path === undefined ? undefined : fieldOf(path);
      if (!field) return false;
      // A validation refusal's own words are the schema's (English, or only "invalid" in 中文): the
      // form's sentence for the field says it better. A refusal of its own kind says what happened.
      errors[field] = refusal.code?.startsWith('field') ? { key: sentences[field] } : { refusal };
      await focusFirst();
      return true;
    },
    clear,
  };
}
