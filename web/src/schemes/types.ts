// The scheme panels' types, defined with the worker protocol in sim/schemeTypes.ts (the
// shared layer) so that sim/ imports no feature folder; SchemeResultMap lives in
// sim/protocol.ts with the StepResult it names.
export * from '../sim/schemeTypes';
export type { SchemeResultMap } from '../sim/protocol';
