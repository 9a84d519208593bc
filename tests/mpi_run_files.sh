#!/usr/bin/env bash
# `strata run --engine mpi` under mpirun reading its inputs and writing its
# results by rows (docs/mpi.md, "Reading and writing in parallel"): at 1 to
# 3 ranks, every array in blocks, each result file is byte for byte the
# interpreter's; a result too big to gather on one rank is a clear error
# suggesting -o, and with -o it is written under the same memory limit.
# Usage: mpi_run_files.sh STRATA MPIEXEC SOURCE_DIR
set -u
strata=$1 mpiexec=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mpirun() { timeout 120 "$mpiexec" --oversubscribe --allow-run-as-root "$@"; }

# 1. Examples of one and of two results, against the interpreter's files.
for ex in saxpy blur prefix_sum blackscholes tuples; do
  rm -f "$tmp"/*.npy
  "$strata" run "$src/examples/$ex.strata" --engine interp -o "$tmp/ref.npy" 2>/dev/null ||
    fail "$ex: the interpreter failed"
  for np in 1 2 3; do
    out=$(STRATA_MPI_MIN_BLOCK_BYTES=0 mpirun -np $np "$strata" run "$src/examples/$ex.strata" \
      --engine mpi -o "$tmp/out.npy" 2>&1) || fail "$ex at $np ranks: $out"
    for ref in "$tmp"/ref*.npy; do
      got=$tmp/out${ref#"$tmp/ref"}
      cmp -s "$ref" "$got" || fail "$ex at $np ranks: $(basename "$got") differs from the interpreter's"
    done
    [ -z "$(find "$tmp" -name '.*tmp-*')" ] || fail "$ex at $np ranks: a temporary was left"
  done
done

# 2. A 64 MiB result on 2 ranks under a 100 MiB limit per process: each rank
# holds 32 MiB of it, gathering it would take 128 MiB more.
cat >"$tmp/big.strata" <<'P'
(program () (generate (ix 8388608) (lambda (i) (* (cast f64 (proj 0 i)) 0.5))))
P
out=$(STRATA_MEMORY_LIMIT=100M mpirun -np 2 "$strata" run "$tmp/big.strata" --engine mpi 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "too big to gather: exit $rc"
grep -q "does not fit in one rank's memory to be gathered .*write it in parallel with -o FILE.npy" \
  <<<"$out" || fail "too big to gather: $out"
out=$(STRATA_MEMORY_LIMIT=100M mpirun -np 2 "$strata" run "$tmp/big.strata" --engine mpi \
  -o "$tmp/big.npy" 2>&1) || fail "too big to gather, written in parallel: $out"
"$strata" run "$tmp/big.strata" --engine interp -o "$tmp/big_ref.npy" 2>/dev/null
cmp -s "$tmp/big.npy" "$tmp/big_ref.npy" || fail "the 64 MiB result differs from the interpreter's"

echo "mpi files: ok"
