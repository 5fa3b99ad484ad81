/**
 * A stand-in for `src/shared/require-commonjs.js` that records each required module ID before
 * requiring it, for tests that check a dependency is loaded only when a run needs it.
 */
type RequireCommonJsModule = typeof import('../../src/shared/require-commonjs.js');

export function recordingRequireModule(
  actual: RequireCommonJsModule,
  required: string[],
): RequireCommonJsModule {
  const requireCommonJs = ((id: string): unknown => {
    required.push(id);
    return actual.requireCommonJs(id);
  }) as RequireCommonJsModule['requireCommonJs'];
  return { requireCommonJs };
}
