/**
 * The platforms the contract's prose speaks of, derived from their facts: a description says which
 * platforms a rule touches without the route files naming a platform (the registry does, once).
 */
import { type PlatformFacts, platformsWhere } from '../shared/domain/platforms';

/** The platforms whose facts say `fact`, as prose lists them: "`a`, `b` and `c`". */
export function platformsNamed(fact: (facts: PlatformFacts) => boolean): string {
  const named = platformsWhere(fact).map((platform) => `\`${platform}\``);
  const last = named.pop();
  if (last === undefined) throw new Error('no platform has the fact this description speaks of');
  return named.length > 0 ? `${named.join(', ')} and ${last}` : last;
}
