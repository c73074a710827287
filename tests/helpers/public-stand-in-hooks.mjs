// Module hooks for an audio worker thread (AudioWorkerPoolOptions.loaderHooks): the request-forgery
// guard's address module resolves to public-address-stand-in.ts, which counts PUBLIC_STAND_IN_ADDRESS as
// public and judges every other address with the real module. What `vi.mock(…public-address…,
// withPublicStandIn)` does in a test's own thread, for the workers a `vi.mock` does not reach.
const GUARD_MODULE = /\/shared\/net\/public-address\.ts$/;
const STAND_IN = new URL('./public-address-stand-in.ts', import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const url = new URL(resolved.url);
  // The stand-in itself imports the real module.
  if (!GUARD_MODULE.test(url.pathname) || context.parentURL?.startsWith(STAND_IN.href)) return resolved;
  const standIn = new URL(STAND_IN);
  // Keeps tsx's namespace (the query), so tsx loads the stand-in as one of the worker's modules.
  standIn.search = url.search;
  return { ...resolved, url: standIn.href, shortCircuit: true };
}
