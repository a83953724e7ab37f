// One glossary entry (the data files and glossary.ts share it; no import cycle).
export interface GlossaryEntry {
  id: string;
  term: string;
  /** how the term is written in running text (matched whole-word, case-sensitive) */
  patterns: string[];
  definition: string;
}
