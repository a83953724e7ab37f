#!/usr/bin/env bash
# Peak RSS of `ftl` on hostile input (issue 29, item 5): not a test, a measurement.
# Generates the files in a temp dir (never in the repo), runs each through the release
# binary, prints one line per case: exit code, peak RSS (MB, from /usr/bin/time -v),
# wall seconds, and the first line of stderr.
#   scripts/hostile-input-rss.sh [path/to/ftl]
#   ONLY=34 scripts/hostile-input-rss.sh   (only issue 34's cases: merge, --scenario, count caps)
# Needs zstd, gzip and python3. The 6 GiB and 2 GiB inputs take a minute to compress.
set -eu  # no pipefail: `yes | head` ends yes with SIGPIPE
FTL=${1:-core-wasm/target/release/ftl}
[ -x "$FTL" ] || { echo "build it first: cargo build --release -p ftlscope-cli (in core-wasm/)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ "${ONLY:-}" != 34 ]; then
head -c 1G /dev/zero | zstd -q -19 -o "$T/zeros-1g.zst"
head -c 6G /dev/zero | zstd -q -3 -o "$T/zeros-6g.zst"
# 2 GiB of valid UMass text: one line repeated (compresses to a few hundred KB).
yes '0,303567,4096,w,0.000000' | head -c 2G | zstd -q -3 -o "$T/umass-2g.zst"
yes '0,303567,4096,w,0.000000' | head -c 2G | gzip -1 > "$T/umass-2g.gz"
head -c 256M /dev/zero | gzip -1 > "$T/zeros-256m.gz"
head -c 1G /dev/zero > "$T/zeros-1g.bin"
python3 -c "print('('*100000 + 'w0' + ')x1'*100000)" > "$T/deep.pattern"
printf '0,0,107374182400,w,0.0\n' > "$T/huge-record.spc"
fi

# /usr/bin/time writes its report after the program's stderr: keep both in one file.
run() {
  local name=$1; shift
  local rc=0
  /usr/bin/time -v -o "$T/time" "$@" > /dev/null 2> "$T/err" || rc=$?
  local rss wall
  rss=$(awk '/Maximum resident set size/ {printf "%.0f", $6/1024}' "$T/time")
  wall=$(awk '/Elapsed \(wall clock\)/ {print $8}' "$T/time")
  printf '%-34s exit %-3s %5s MB %9s  %s\n' "$name" "$rc" "$rss" "$wall" "$(head -1 "$T/err" | cut -c1-140)"
}

echo "case                               exit  peak RSS   wall (m:s) first line of stderr"
if [ "${ONLY:-}" != 34 ]; then
run "zstd 1 GiB zeros ($(stat -c%s "$T/zeros-1g.zst") B)" "$FTL" trace --trace "$T/zeros-1g.zst"
run "zstd 6 GiB zeros ($(stat -c%s "$T/zeros-6g.zst") B)" "$FTL" trace --trace "$T/zeros-6g.zst"
run "zstd 2 GiB UMass ($(stat -c%s "$T/umass-2g.zst") B)" "$FTL" trace --trace "$T/umass-2g.zst"
run "gzip 2 GiB UMass ($(stat -c%s "$T/umass-2g.gz") B)" "$FTL" trace --trace "$T/umass-2g.gz"
run "gzip 256 MiB zeros" "$FTL" trace --trace "$T/zeros-256m.gz"
run "1 GiB zeros, plain" "$FTL" trace --trace "$T/zeros-1g.bin"
run "1 GiB zeros as oracle_general" "$FTL" trace --trace "$T/zeros-1g.bin" --format oracle_general
run "100,000 nested groups" "$FTL" trace --trace "$T/deep.pattern"
run "UMass record of 25 M pages" "$FTL" trace --trace "$T/huge-record.spc"
run "camera file_pages=1e9" "$FTL" run --scheme page --gen camera:n=10,seed=1,file_pages=1000000000
printf 'op,lpn\nw,0\nw,4503599627370496\n' > "$T/far.csv"
run "--fit scale, page 2^52" "$FTL" run --scheme page --trace "$T/far.csv" --fit scale
echo '(w0-999)x20000' > "$T/big.pattern"
run "pattern of 20 M requests (limit)" "$FTL" trace --trace "$T/big.pattern"
fi

# Issue 34: merge and --scenario read with a size limit and stream; every count flag
# has the wasm's cap; trace errors are one line.
truncate -s 2G "$T/sparse-2g.jsonl"
printf '{"row":0,"rows":18446744073709551615,"error":null}\n' > "$T/claims.jsonl"
yes ' ' | head -c 100M > "$T/spaces.json"
printf '\xef\xbb\xbf{"scheme":"page","workload":{"kind":"uniform","n":1000,"seed":1}}\n' > "$T/bom.json"
{ echo '0,0,4096,w,0.0'; yes '0,0,x,w,0.0' | head -n 1000; } > "$T/bad-lines.spc"
run "merge: 2 GiB sparse file" "$FTL" merge "$T/sparse-2g.jsonl"
run "merge: a row claiming 2^64-1 rows" "$FTL" merge "$T/claims.jsonl"
run "run --scenario /dev/zero" "$FTL" run --scenario /dev/zero
run "run --scenario 100 MB of spaces" "$FTL" run --scenario "$T/spaces.json"
run "run --scenario with a UTF-8 BOM" "$FTL" run --scenario "$T/bom.json"
run "--pool-baseline 2^64-1" "$FTL" crash-sweep --scheme page --chain 10 --pool-baseline 18446744073709551615
run "--chain 2^64-1" "$FTL" crash-sweep --scheme page --chain 18446744073709551615
run "--random 100000000" "$FTL" crash-sweep --scheme page --gen uniform:n=10 --random 100000000
run "--every 2^32" "$FTL" crash-sweep --scheme page --gen uniform:n=10 --every 4294967296
run "trace of 1,000 bad lines" "$FTL" trace --trace "$T/bad-lines.spc"
