#!/bin/sh
# Issue 40 item 6's wider run (docs/ssd.md, "Power cuts", the device chain sweep): chains of
# CUTS power cuts (default 2,000) on devices of several dies, every scheme, each die a chip
# of odd or even pages per block, from the scheme's smallest chip up.
#
#   shapes     SHAPES (default "2x2 8x1 4x2"): channels x dies per channel, the scheme's
#              stripe (page for page mapping, block for the rest)
#   chips      a die's pages per block PPBS (default 3 5 8 16) x sizes SIZES (default
#              "min 64": the scheme's smallest chip for that block size, found by asking
#              `ftl run` for the smallest it accepts, and 64 blocks)
#   workloads  the chain's own (half uniform over the device's space, half its hot eighth,
#              20 % reads), uniform (20 % reads), hot/cold (10 % reads), sequential; each
#              generated one of N requests (default 5,000) over the device's space, in
#              order and again from its start
#   seeds      SEEDS (default 1): the workload's seed and the chain's (--seed)
#   flags      FLAGS (default none): more chain flags for every chain, e.g. the torn-page
#              models and targeted cuts of the one-chip chains (issue 34):
#              FLAGS="--reads-erased --targeted" or FLAGS="--paired-pages"
#
# Each cut stops every die; with chance 0.6 every die's recovery is cut again; every die is
# checked against its reference model and its pools against the device run without cuts.
# One line per chain: exit code (0 clean, 3 a failed check), the arguments, cuts, correct,
# lost, wrong, stuck, pools beyond the cut-free bound, recoveries cut, the first failure.
# Any variable narrows the run, e.g. SCHEMES="page fast" SHAPES=2x2 CUTS=200. Build first:
#   cargo build --release --manifest-path core-wasm/Cargo.toml -p ftlscope-cli
FTL=${FTL:-core-wasm/target/release/ftl}
CUTS=${CUTS:-2000}
N=${N:-5000}
SCHEMES=${SCHEMES:-"page bast fast ofast fastcheck fast-ltlog rftl gftl nftl kraft kast ltftl dftl"}
SHAPES=${SHAPES:-"2x2 8x1 4x2"}
PPBS=${PPBS:-"3 5 8 16"}
SIZES=${SIZES:-"min 64"}
SEEDS=${SEEDS:-1}
WORKLOADS=${WORKLOADS:-"own uniform hotcold sequential"}
FLAGS=${FLAGS:-}

. "$(dirname "$0")/crash-chains-lib.sh"

gen() {
  case $1 in
    uniform) echo "--gen uniform:n=$N,seed=$2,read_ratio=0.2";;
    hotcold) echo "--gen hotcold:n=$N,seed=$2,read_ratio=0.1";;
    sequential) echo "--gen sequential:n=$N";;
    own) echo "";;
  esac
}

one() {
  # shellcheck disable=SC2086
  out=$("$FTL" crash-sweep "$@" $FLAGS --chain "$CUTS" --json 2>/dev/null); rc=$?
  echo "$out" | python3 -c "
import json, sys
r = json.load(sys.stdin)
f = r['first_failures'][0] if r['first_failures'] else ''
print('rc=$rc', ' '.join(sys.argv[1:]), '$FLAGS', 'cuts', r['cuts'], 'correct', r['recovered_correctly'], 'lost', r['acked_writes_lost'],
      'wrong', r['wrong_reads'], 'stuck', r['stuck'], 'pool_excess', r['pool_excess'], 'recut', r['recut_inside_recovery'], 'aimed', sum(t['cut'] for t in r.get('targets', [])),
      'stopped', r['stopped'], '|', f[:300])
" "$@" 2>/dev/null || echo "rc=$rc $* (no report)"
}

for s in $SCHEMES; do
  for p in $PPBS; do
    m=$(min_blocks "$s" "$p")
    [ -z "$m" ] && { echo "skip $s x $p: no chip up to 256 blocks"; continue; }
    for size in $SIZES; do
      b=$(chip_blocks "$size" "$m")
      [ -z "$b" ] && continue
      for shape in $SHAPES; do
        for w in $WORKLOADS; do
          for seed in $SEEDS; do
            # shellcheck disable=SC2046
            one --scheme "$s" --blocks "$b" --pages-per-block "$p" --channels "${shape%x*}" \
              --dies-per-channel "${shape#*x}" $(gen "$w" "$seed") --seed "$seed"
          done
        done
      done
    done
  done
done
