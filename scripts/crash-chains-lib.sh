# Shared by crash-chains-wide.sh and crash-chains-device.sh (sourced; needs $FTL).

# The smallest number of blocks the scheme accepts on PPB-page blocks (the registry's
# ranges and builder, through `ftl run`); empty when none up to 256.
min_blocks() {
  b=2
  while [ $b -le 256 ]; do
    if "$FTL" run --scheme "$1" --blocks $b --pages-per-block "$2" --pattern w0 >/dev/null 2>&1; then
      echo $b; return
    fi
    b=$((b + 1))
  done
}

# Blocks for a SIZES entry ("min", "min+N" or a number) given the minimum $2, at most
# 256; empty when below the minimum.
chip_blocks() {
  case $1 in
    min) b=$2;;
    min+*) b=$(($2 + ${1#min+}));;
    *) b=$1;;
  esac
  [ "$b" -gt 256 ] && b=256
  [ "$b" -lt "$2" ] || echo "$b"
}
