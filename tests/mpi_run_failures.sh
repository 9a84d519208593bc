#!/usr/bin/env bash
# The mpi engine under mpirun when something goes wrong (docs/mpi.md,
# "Errors"): ranks given other inputs, a rank that cannot read its input,
# and a rank killed in the middle of a run. Each must end the job with a
# non-zero exit and a message naming the rank within seconds, never hang,
# and leave no output file. Usage: mpi_run_failures.sh STRATA MPIEXEC SOURCE_DIR
set -u
strata=$1 mpiexec=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mpirun() { timeout 60 "$mpiexec" --oversubscribe --allow-run-as-root "$@"; }

cat >"$tmp/double.strata" <<'P'
(program ((xs (array f32 1))) (map (lambda (x) (* x 2f32)) xs))
P
cat >"$tmp/forever.strata" <<'P'
(program ((xs (array f32 1)))
  (awhile (lambda (a) (map (lambda (s) (< s 1e30f32)) (fold max 0f32 a)))
          (lambda (a) (map (lambda (x) (+ (* x 1.0000001f32) 1f32)) a)) xs))
P
xs=$src/examples/saxpy/xs.npy
ys=$src/examples/saxpy/ys.npy
ints=$src/examples/sum/xs.npy
export STRATA_TEST_STRATA=$strata

# 1. Rank 1 reads another file of the same type and shape.
out=$(mpirun -np 2 sh -c 'f=$0; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && f=$1;
  exec "$STRATA_TEST_STRATA" run "$2/double.strata" xs="$f" --engine mpi -o "$2/out.npy"' \
  "$xs" "$ys" "$tmp" 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "other inputs: exit 0"
grep -q "rank 1 was given another \`xs\` than rank 0: the same type and shape, other contents" <<<"$out" ||
  fail "other inputs: $out"
[ ! -e "$tmp/out.npy" ] || fail "other inputs: an output file was written"

# 2. Rank 1 is given an input of the wrong type: it stops before the engine
# starts; mpirun ends the others.
out=$(mpirun -np 2 sh -c 'f=$0; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && f=$1;
  exec "$STRATA_TEST_STRATA" run "$2/double.strata" xs="$f" --engine mpi -o "$2/out.npy"' \
  "$xs" "$ints" "$tmp" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "wrong type on one rank: exit $rc"
grep -q "xs" <<<"$out" || fail "wrong type on one rank: $out"
[ ! -e "$tmp/out.npy" ] || fail "wrong type on one rank: an output file was written"

# 3. Rank 1 is killed one second into a run that never ends.
start=$(date +%s)
out=$(mpirun -np 3 sh -c '[ "$OMPI_COMM_WORLD_RANK" = 1 ] && (sleep 1; kill -9 $$) &
  exec "$STRATA_TEST_STRATA" run "$1/forever.strata" xs="$0" --engine mpi -o "$1/out.npy"' \
  "$xs" "$tmp" 2>&1)
rc=$?
took=$(($(date +%s) - start))
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "killed rank: exit $rc after ${took}s"
[ $took -le 20 ] || fail "killed rank: the others took ${took}s to stop"
grep -q "rank 1" <<<"$out" || fail "killed rank: the rank is not named: $out"
[ ! -e "$tmp/out.npy" ] || fail "killed rank: an output file was written"

# 4. One rank runs with another option or another program: every rank
# names the difference before any acts on it, whichever rank differs.
for odd in 1 0; do
  out=$(mpirun -np 3 sh -c 'o=; [ "$OMPI_COMM_WORLD_RANK" = $0 ] && o=--no-fusion;
    exec "$STRATA_TEST_STRATA" run "$1/examples/dotp.strata" --engine mpi $o -o "$2/out.npy"' \
    "$odd" "$src" "$tmp" 2>&1)
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "--no-fusion on rank $odd: exit $rc"
  grep -q "runs with fusion o[nf]*, rank 0 with fusion o[nf]* (every rank must run the same program" <<<"$out" ||
    fail "--no-fusion on rank $odd: $out"
  [ ! -e "$tmp/out.npy" ] || fail "--no-fusion on rank $odd: an output file was written"
done
out=$(mpirun -np 2 sh -c 'm=exact; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && m=fast;
  exec "$STRATA_TEST_STRATA" run "$0/double.strata" xs="$1" --engine mpi --math $m' \
  "$tmp" "$xs" 2>&1)
[ $? -ne 0 ] || fail "--math on one rank: exit 0"
grep -q "rank 1 runs with math fast, rank 0 with math exact" <<<"$out" || fail "--math on one rank: $out"
sed 's/2f32/3f32/' "$tmp/double.strata" >"$tmp/triple.strata"
out=$(mpirun -np 2 sh -c 'p=double; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && p=triple;
  exec "$STRATA_TEST_STRATA" run "$0/$p.strata" xs="$1" --engine mpi' "$tmp" "$xs" 2>&1)
[ $? -ne 0 ] || fail "another program on one rank: exit 0"
grep -q "rank 1 runs another program than rank 0" <<<"$out" || fail "another program on one rank: $out"

echo "mpi failures: ok"
