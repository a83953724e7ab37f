#!/bin/sh
# Issue 29's recovery sweeps (docs/schemes/recovery.md, "Device health"): chains of 100,000
# cuts on 4-page-block chips (page mapping on 8..16 x 4 with 30 seeds, every other scheme
# that takes 4-page blocks on the same chips with seed 1) and targeted chains for FastCheck
# and fast-ltlog. One line per chain: exit code (0 clean, 3 a failed check), cuts, lost,
# wrong, stuck, pools beyond cut-free. Build first: cargo build --release -p ftlscope-cli.
FTL=${FTL:-core-wasm/target/release/ftl}
CUTS=${CUTS:-100000}
one() {
  out=$("$FTL" crash-sweep "$@" --chain "$CUTS" --json 2>/dev/null); rc=$?
  echo "$out" | python3 -c "import json,sys; r=json.load(sys.stdin); print('rc=$rc', ' '.join(sys.argv[1:]), 'cuts', r['cuts'], 'lost', r['acked_writes_lost'], 'wrong', r['wrong_reads'], 'stuck', r['stuck'], 'pool_excess', r['pool_excess'], 'correct', r['recovered_correctly'], 'targets', ' '.join('%s=%d/%d' % (t['target'], t['cut'], t['offered']) for t in r['targets'] if t['offered']))" "$@" 2>/dev/null || echo "rc=$rc $* (no report)"
}
for b in 8 10 12 14 16; do
  for seed in $(seq 1 30); do one --scheme page --blocks $b --pages-per-block 4 --seed $seed; done
done
for s in bast fast ofast fastcheck fast-ltlog nftl rftl kraft kast ltftl; do
  for b in 8 10 12 14 16; do one --scheme $s --blocks $b --pages-per-block 4 --seed 1; done
done
for b in 8 12 16; do one --scheme ltftl --blocks $b --pages-per-block 4 --seed 1 --time-shift; done
one --scheme fastcheck --blocks 24 --pages-per-block 8 --log-blocks 4 --checkpoint-lpns 16 --seed 1 --targeted
one --scheme fast-ltlog --blocks 24 --pages-per-block 8 --log-blocks 4 --checkpoint-lpns 16 --seed 1 --targeted
one --scheme fast-ltlog --blocks 64 --pages-per-block 16 --log-blocks 8 --checkpoint-lpns 16 --seed 1 --targeted
one --scheme fastcheck --blocks 256 --pages-per-block 32 --log-blocks 85 --seed 2 --targeted
