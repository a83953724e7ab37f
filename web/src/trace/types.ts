// The trace feature's types, defined with the worker protocol in sim/traceTypes.ts (the
// shared layer) so that sim/ imports no feature folder.
export * from '../sim/traceTypes';
