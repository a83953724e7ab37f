#!/bin/sh
# Issue 34's long run (docs/schemes/recovery.md, "Wide chips and workloads"): chains of
# CUTS power cuts (default 100,000) for every scheme on chips of odd and even pages per
# block, from each scheme's smallest chip up to 256 blocks, x 5 workloads x 3 seeds.
#
#   chips      pages per block PPBS (default 2 3 4 5 7 8 11 16) x sizes SIZES (default
#              "min min+2 256": the scheme's registry minimum for that block size, found
#              by asking `ftl run` for the smallest chip it accepts, two blocks more, and
#              256 blocks): 24 chips a scheme (fewer where the scheme refuses a block
#              size, e.g. RFTL on 2-page blocks)
#   workloads  uniform (20 % reads), hot/cold (10 % reads), camera (8-page photos),
#              sequential, one hot page (every request to lpn 0, 20 % reads); each of
#              N requests (default 5,000), run in order and again from the start
#   seeds      SEEDS (default 1 2 3): the workload's seed and the chain's (--seed)
#   cuts       torn pages and pages that read as erased (--reads-erased)
#
# Every scheme runs with its defaults. One line per chain: exit code (0 clean, 3 a failed
# check), the arguments, cuts, correct, lost, wrong, stuck, pools beyond the cut-free
# bound, the first failure. Any variable narrows the run, e.g. a slice:
#   SCHEMES="page ltftl" PPBS="3 5" SIZES=min CUTS=2000 SEEDS=1 scripts/crash-chains-wide.sh
# The whole run is 13 schemes x up to 24 chips x 5 x 3 = up to 4,680 chains of 100,000
# cuts (about 470 M cuts: days on one core). Build first:
#   cargo build --release --manifest-path core-wasm/Cargo.toml -p ftlscope-cli
FTL=${FTL:-core-wasm/target/release/ftl}
CUTS=${CUTS:-100000}
N=${N:-5000}
SCHEMES=${SCHEMES:-"page bast fast ofast fastcheck fast-ltlog rftl gftl nftl kraft kast ltftl dftl"}
PPBS=${PPBS:-"2 3 4 5 7 8 11 16"}
SIZES=${SIZES:-"min min+2 256"}
SEEDS=${SEEDS:-"1 2 3"}
WORKLOADS=${WORKLOADS:-"uniform hotcold camera sequential one_hot_page"}

. "$(dirname "$0")/crash-chains-lib.sh"

gen() {
  case $1 in
    uniform) echo "uniform:n=$N,seed=$2,read_ratio=0.2";;
    hotcold) echo "hotcold:n=$N,seed=$2,read_ratio=0.1";;
    camera) echo "camera:n=$N,seed=$2,file_pages=8";;
    sequential) echo "sequential:n=$N";;
    one_hot_page) echo "hotcold:n=$N,seed=$2,read_ratio=0.2,hot_fraction=0,hot_ratio=1";;
  esac
}

one() {
  out=$("$FTL" crash-sweep "$@" --chain "$CUTS" --reads-erased --json 2>/dev/null); rc=$?
  echo "$out" | python3 -c "
import json, sys
r = json.load(sys.stdin)
f = r['first_failures'][0] if r['first_failures'] else ''
print('rc=$rc', ' '.join(sys.argv[1:]), 'cuts', r['cuts'], 'correct', r['recovered_correctly'], 'lost', r['acked_writes_lost'],
      'wrong', r['wrong_reads'], 'stuck', r['stuck'], 'pool_excess', r['pool_excess'], 'stopped', r['stopped'], '|', f[:300])
" "$@" 2>/dev/null || echo "rc=$rc $* (no report)"
}

for s in $SCHEMES; do
  for p in $PPBS; do
    m=$(min_blocks "$s" "$p")
    [ -z "$m" ] && { echo "skip $s x $p: no chip up to 256 blocks"; continue; }
    for size in $SIZES; do
      b=$(chip_blocks "$size" "$m")
      [ -z "$b" ] && continue
      for w in $WORKLOADS; do
        for seed in $SEEDS; do
          one --scheme "$s" --blocks "$b" --pages-per-block "$p" --gen "$(gen "$w" "$seed")" --seed "$seed"
        done
      done
    done
  done
done
