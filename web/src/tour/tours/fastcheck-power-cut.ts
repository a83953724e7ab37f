// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';

const FIG4 =
  'w0-67 w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25 w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33 w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5 w9 w10 w11 w13 w18';

export const fastcheckPowerCut: Tour = {
  id: 'fastcheck-power-cut',
  title: 'A power cut in the middle of a merge, and FastCheck’s recovery',
  summary:
    'The situation of FastCheck Figure 4: power fails right after the first merge of a victim log block; recovery reads the map directory, the map block, the checkpoints and one uncheckpointed region, and marks stale log pages by their merge sequence numbers.',
  schemes: ['fastcheck'],
  scenario: {
    scheme: 'fastcheck',
    params: { log_blocks: 7, checkpoint_lpns: 12 },
    chip: { preset: 'classroom', blocks: 32, pages_per_block: 4 },
    workload: { kind: 'pattern', text: FIG4 },
  },
  stops: [
    {
      title: 'Every data block written in place',
      at: { step: 68, op: 0 },
      text: 'w0-67 wrote each logical page once, in place. Blocks 0 and 1 are reserved for the map directory: fixed blocks that will say where the map block is. Both are still empty: no merge has happened, so the block map has not been logged yet.',
      highlight: { roles: ['map-dir', 'map'] },
      expect: { host_writes: 68, erases: 0 },
    },
    {
      title: 'A log region fills: one checkpoint page',
      at: { step: 80, op: 0 },
      text: 'Twelve updates went to the RW log blocks 19, 21 and 22 (the chip’s block numbers): one log region, sized so that its LPNs fill one page. When the region filled, FastCheck wrote those LPNs to a checkpoint block — one page for twelve writes (equation 3: N_writes / P metadata pages).',
      highlight: { roles: ['checkpoint', 'rw-log'] },
      expect: { 'by_cause.log.programs': 1, erases: 0 },
    },
    {
      title: 'The second region, with the future victim (block 26)',
      at: { step: 92, op: 0 },
      text: 'Twelve more updates filled region 1 (log blocks 24, 26 and 27), checkpointed by a second page. Log block 26 holds LPNs 41, 42, 46 and 49 — it will be the victim of Figure 4 (the paper calls it E).',
      highlight: { roles: ['rw-log'] },
      expect: { 'by_cause.log.programs': 2 },
    },
    {
      title: 'Merges log the block map',
      at: { step: 108, op: 0 },
      text: 'Replacing log blocks 19, 21, 22 and then 24 took 4 victims and 7 full merges; each merge logged the block map to a page of the map block (Cause “map”). Merging LBN 12 gave it a new data block, so block 26’s copy of LPN 49 is now stale: the data block’s merge sequence number (dbMSN) is newer than the log block’s (lbMSN).',
      highlight: { roles: ['map', 'rw-log'] },
      quiz: {
        question:
          'The next write makes log block 26 the victim. If power fails right after its first merge (LBN 10), which of block 26’s log pages must recovery treat as invalid?',
        answer:
          'LPNs 41 and 42 (merged into LBN 10’s new data block just before the cut) and 49 (merged earlier with LBN 12): for each, the data block’s MSN is newer than the log block’s.',
      },
      expect: { 'merges.full': 7, 'merges.full_victims': 4, erases: 16 },
    },
    {
      title: 'Figure 4: cut the power here',
      at: { step: 108, op: 10 },
      text: 'Request 109 (w18) made log block 26 (the paper’s E) the victim. LBN 10’s merge copied its sectors to a new block (8), logged the block map, and erased the old data block. This is the moment of Figure 4. Block 26’s copies of LPNs 41 and 42 are now invalid: the merge copied them to block 8 and FastCheck marked them −1 — but only in RAM, which a power cut loses; on flash they still look like log pages. Press “Cut power here” in the Power panel, then “Recover”, and step (→) through the six phases: map directory → map block → checkpoints → restoration scan of the uncheckpointed region → consistency check (LPNs 41, 42 and 49 set to −1, with both MSNs shown) → merge redo: the spare areas of the data blocks (88 reads) show that LBN 10’s merge finished and was logged, so nothing is redone (section 5.1 re-executes the last merge only when its block-map log was cut); LPN 46 stays in block 26, still the victim, and the next write to a RW log block merges it. The verdict compares every logical page with the reference model.',
      highlight: { touched: true },
      expect: { 'merges.full': 8, erases: 17 },
      blocks: [
        { block: 8, role: 'data', owner: 10, pages: 'VVVV' },
        { block: 12, pages: 'EEEE' },
        { block: 26, role: 'rw-log', pages: 'IIVI' },
      ],
    },
  ],
};
