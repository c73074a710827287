/**
 * Local file upload (`POST /api/music/local/upload`: the raw bytes, the name in `x-filename`). It goes
 * through XMLHttpRequest because fetch reports no upload progress; the answer is the stored Song.
 */
import type { Schemas } from '@api/index';
import { apiBaseUrl } from '../base';
import { t } from '../i18n';
import { PLATFORM_ROUTES } from '../platforms/platform-routes';
import { type CallResult, errorText } from './client';

export const UPLOAD_PATH = PLATFORM_ROUTES.uploads.upload;

/** An upload under way: its answer, and a way to stop it (the answer is then a refusal with status 0). */
export interface RunningUpload {
  result: Promise<CallResult<{ song: Schemas['Song'] }>>;
  cancel(): void;
}

export function uploadFile(file: File, onProgress: (fraction: number) => void): RunningUpload {
  const xhr = new XMLHttpRequest();
  const result = new Promise<CallResult<{ song: Schemas['Song'] }>>((resolve) => {
    xhr.open('POST', `${apiBaseUrl}${UPLOAD_PATH}`);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    // Header values are ASCII: the server decodes the percent-encoded name.
    xhr.setRequestHeader('x-filename', encodeURIComponent(file.name));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      const song = (body as { song?: Schemas['Song'] } | undefined)?.song;
      if (xhr.status >= 200 && xhr.status < 300 && song) resolve({ ok: true, value: { song } });
      else resolve({ ok: false, status: xhr.status, error: errorText(body, xhr.status) });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, error: t('error.unreachable') });
    xhr.onabort = () => resolve({ ok: false, status: 0, error: t('upload.cancelled') });
    xhr.send(file);
  });
  return { result, cancel: () => xhr.abort() };
}
