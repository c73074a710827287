/**
 * The guard's address module as an audio worker thread sees it in a test that loads
 * public-stand-in-hooks.mjs: PUBLIC_STAND_IN_ADDRESS counts as public, every other address is judged by
 * the real module (withPublicStandIn, as a test's own thread gets it from `vi.mock`).
 */
import * as real from '../../shared/net/public-address';
import { withPublicStandIn } from './radio-server';

export * from '../../shared/net/public-address';
export const { isPublicAddress } = withPublicStandIn(real);
