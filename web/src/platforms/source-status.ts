/**
 * Whether this server reaches each enabled platform and is logged in there (`GET
 * /api/music/sources/status`, admins only): the Settings panel shows it, the music home reads it to say
 * once that nothing can be reached.
 */
import { api, call } from '../api/client';
import { can } from '../stores/session';

export const canSeeSourceStatus = (): boolean => can('GET', '/api/music/sources/status');
export const sourceStatus = () => call(api.GET('/api/music/sources/status'));
