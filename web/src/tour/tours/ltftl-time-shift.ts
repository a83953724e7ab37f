// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';
import { pattern } from './common';

const TIME_SHIFT = 'w0 w1 w2 w3 w0 w1 w4 w5 freeze w3 w4 w5 w6 r3 revert 1 r3 w6 unfreeze 1';

export const ltftlTimeShift: Tour = {
  id: 'ltftl-time-shift',
  title: 'LTFTL: freeze, change, revert',
  summary:
    'Freeze a state, keep writing, and go back to it: the log keeps the old pages retractable (LTFTL, Figures 2 and 6).',
  schemes: ['ltftl'],
  scenario: pattern('ltftl', {}, TIME_SHIFT),
  stops: [
    {
      title: 'Eight writes, t = 0..7',
      at: { step: 8, op: 0 },
      text: 'w0 w1 w2 w3 w0 w1 w4 w5 (Figure 2, t = 0..7): sectors 0 and 1 were written twice, so their first copies are invalid. Every write also appends an entry (sector, old page, new page, time) to the log.',
      highlight: { roles: ['data', 'active'] },
      pages: { valid: 6, invalid: 2, retractable: 0 },
      expect: { 'scheme_metrics.global_time': 8, 'scheme_metrics.log_entries': 8 },
    },
    {
      title: 'Freeze: state 1 is S8',
      at: { step: 9, op: 0 },
      text: 'freeze flushes the log buffer and records state 1 with epoch 8: S8, the valid pages after t = 0..7.',
      quiz: {
        question:
          'Now w3 w4 w5 w6 overwrite three sectors of S8 and add sector 6. What becomes of the old copies of 3, 4 and 5?',
        answer:
          'They become retractable, not invalid: S8 still needs them (S8 ∩ Domain(U), 3 pages), so garbage collection may not reclaim them.',
      },
      expect: { 'scheme_metrics.frozen_states': 1, 'scheme_metrics.log_flushes': 1 },
      pages: { valid: 6, invalid: 2, retractable: 0 },
    },
    {
      title: 'Changes after the freeze',
      at: { step: 13, op: 0 },
      text: 'At t = 12 (Figure 2): 7 valid pages (S12), 3 retractable pages (the S8 copies of sectors 3, 4, 5), 2 invalid pages (needed by no state). U(8–12) in the log holds the four writes since the epoch.',
      highlight: { roles: ['data', 'active'] },
      pages: { valid: 7, invalid: 2, retractable: 3 },
      expect: { 'scheme_metrics.global_time': 12 },
    },
    {
      title: 'Reading the present',
      at: { step: 14, op: 0 },
      text: 'r3 reads sector 3’s newest copy, written at t = 8 after the freeze.',
      highlight: { roles: ['active'] },
      quiz: {
        question: 'revert 1 goes back to S8. Which copy will the next r3 read?',
        answer: 'The one S8 had: written at t = 3, before the freeze, in the first data block.',
      },
      pages: { retractable: 3 },
    },
    {
      title: 'Revert to S8',
      at: { step: 15, op: 0 },
      text: 'revert 1 undoes U(8–12): each changed sector takes back the old page of its first entry after the epoch; the map is dumped and the log rewritten (1 erase). The four pages written after the freeze are now invalid; the retractable ones are valid again.',
      highlight: { roles: ['data', 'active'] },
      pages: { valid: 6, invalid: 6, retractable: 0 },
      expect: { erases: 1, 'scheme_metrics.map_dumps': 1 },
    },
    {
      title: 'The past is the present',
      at: { step: 16, op: 0 },
      text: 'r3 read the pre-freeze copy. State 1 stays and could be reverted to again (time shift is linear); w6 and unfreeze 1 follow: unfreeze drops the state, and pages only it needed become invalid.',
      highlight: { roles: ['data'] },
      expect: { 'scheme_metrics.frozen_states': 1, wrong_reads: 0 },
    },
    {
      title: 'Unfreeze',
      at: { step: 18, op: 0 },
      text: 'unfreeze 1: no frozen state is left; from now on GC may reclaim every invalid page.',
      expect: { 'scheme_metrics.frozen_states': 0, wrong_reads: 0 },
    },
  ],
};
