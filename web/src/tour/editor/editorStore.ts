// The tour editor's state, shared by the Tours menu ("New tour"), the tour panel ("Edit this
// tour") and the editor itself. Kept in localStorage on every change, so a reload (or a
// closed tab) loses nothing: the open editor and its draft come back as they were.
import { useSyncExternalStore } from 'react';
import { draftFromStored, type Draft } from './draft';

/** What the menu or the panel asked for; the editor carries it out (it knows the scenario). */
export type EditorRequest = { kind: 'new' } | { kind: 'edit'; id: string };

export interface EditorState {
  open: boolean;
  draft: Draft | null;
  /** the stop being edited */
  selected: number;
  /** the draft has no changes since it was saved (or it is empty) */
  saved: boolean;
  request: EditorRequest | null;
}

const KEY = 'ftlscope-tour-draft';
const EMPTY: EditorState = { open: false, draft: null, selected: 0, saved: true, request: null };

function read(): EditorState {
  try {
    const text = globalThis.localStorage?.getItem(KEY);
    if (!text || text.length > 2_000_000) return EMPTY;
    const raw = JSON.parse(text) as Partial<EditorState>;
    const draft = draftFromStored(raw.draft);
    return {
      open: raw.open === true,
      draft,
      selected: Number.isInteger(raw.selected) ? Math.max(0, raw.selected!) : 0,
      saved: raw.saved !== false || !draft,
      request: null,
    };
  } catch {
    return EMPTY;
  }
}

let state: EditorState = read();
const listeners = new Set<() => void>();

export function setEditor(change: Partial<EditorState> | ((s: EditorState) => Partial<EditorState>)): void {
  state = { ...state, ...(typeof change === 'function' ? change(state) : change) };
  try {
    const { request: _r, ...kept } = state;
    globalThis.localStorage?.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or blocked: the draft lasts while the page is open
  }
  listeners.forEach((l) => l());
}

export function editorState(): EditorState {
  return state;
}

export function useEditor(): EditorState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** Open the editor with a request ("New tour", "Edit this tour"). */
export function requestEditor(request: EditorRequest): void {
  setEditor({ open: true, request });
}
