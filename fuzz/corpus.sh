#!/usr/bin/env bash
# fuzz/corpus.sh OUT
#
# Gathers the seed corpus of the fuzz targets (scripts/fuzz-targets) into
# OUT/parse, OUT/check and OUT/npy, one file per input, named by the SHA-1 of
# its bytes as libFuzzer names the inputs it adds (so running it again adds
# nothing twice):
#   parse, check  examples/*.strata, every .strata file under tests/, and the
#                 string literals of tests/*.cpp that start with `(` (programs,
#                 expressions, types, and the malformed text of error tests)
#   npy           every .npy file under examples/ and tests/, and a few written
#                 here for what those lack (versions 2.0 and 3.0, rank 0, empty,
#                 padded and nested structured dtypes, Fortran order, a bad bool)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 1 ]; then
  echo "usage: fuzz/corpus.sh OUT" >&2
  exit 2
fi
out=$1
mkdir -p "$out/parse" "$out/check" "$out/npy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/text" "$tmp/npy"

# Program text.
cd "$root"
find examples tests -name '*.strata' -type f -print0 |
  while IFS= read -r -d '' f; do cp "$f" "$tmp/text/$(echo "$f" | tr / _)"; done
perl -e '
  use strict; use warnings;
  my $dir = shift @ARGV; my $n = 0; my %seen;
  for my $f (@ARGV) {
    local $/; open my $fh, "<", $f or next; my $src = <$fh>; close $fh;
    my @found;
    # Raw strings R"d(...)d", whole.
    while ($src =~ /R"([^(\s]{0,16})\((.*?)\)\1"/gs) { push @found, $2; }
    (my $plain = $src) =~ s/R"([^(\s]{0,16})\((.*?)\)\1"//gs;
    # Ordinary literals, with their simple escapes undone.
    while ($plain =~ /"((?:[^"\\\n]|\\.)*)"/g) {
      my $s = $1;
      $s =~ s/\\(n|t|"|\\)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : $1/ge;
      push @found, $s;
    }
    for my $s (@found) {
      next unless $s =~ /^\s*\(/ && length($s) >= 3 && !$seen{$s}++;
      open my $o, ">", sprintf("%s/lit-%05d", $dir, $n++) or die; print $o $s; close $o;
    }
  }' "$tmp/text" tests/*.cpp

# .npy files.
find examples tests -name '*.npy' -type f -print0 |
  while IFS= read -r -d '' f; do cp "$f" "$tmp/npy/$(echo "$f" | tr / _)"; done
perl -e '
  use strict; use warnings;
  my $dir = shift @ARGV; my $n = 0;
  # A .npy file: magic, version, header length, the dict padded to 64 bytes, data.
  sub npy {
    my ($major, $dict, $data) = @_;
    my $prefix = $major == 1 ? 10 : 12;
    my $len = length($dict) + 1;
    $len += 64 - ($prefix + $len) % 64 if ($prefix + $len) % 64;
    my $header = $dict . (" " x ($len - length($dict) - 1)) . "\n";
    my $bytes = "\x93NUMPY" . chr($major) . "\0"
      . ($major == 1 ? pack("v", $len) : pack("V", $len)) . $header . $data;
    open my $o, ">", sprintf("%s/gen-%02d.npy", $dir, $n++) or die; binmode $o; print $o $bytes; close $o;
  }
  npy(1, "{\x27descr\x27: \x27|u1\x27, \x27fortran_order\x27: False, \x27shape\x27: (3,), }", "\x01\x02\x03");
  npy(2, "{\x27descr\x27: \x27<i2\x27, \x27fortran_order\x27: False, \x27shape\x27: (2, 2), }", pack("v4", 1, 2, 3, 65535));
  npy(3, "{\x27descr\x27: [(\x27\xc3\xa9\x27, \x27<i4\x27), (\x27f1\x27, \x27<f8\x27)], \x27fortran_order\x27: False, \x27shape\x27: (1,), }", pack("V", 7) . pack("d", 0.5));
  npy(1, "{\x27descr\x27: \x27<f8\x27, \x27fortran_order\x27: False, \x27shape\x27: (), }", pack("d", -0.0));
  npy(1, "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (0, 5), }", "");
  npy(1, "{\x27descr\x27: [(\x27f0\x27, \x27<i4\x27), (\x27\x27, \x27|V4\x27), (\x27f1\x27, \x27<f8\x27)], \x27fortran_order\x27: False, \x27shape\x27: (2,), }",
      pack("V", 1) . "\0" x 4 . pack("d", 1.5) . pack("V", 2) . "\0" x 4 . pack("d", 2.5));
  npy(1, "{\x27descr\x27: [(\x27f0\x27, \x27<i4\x27), (\x27f1\x27, [(\x27f0\x27, \x27<f4\x27), (\x27f1\x27, \x27<f8\x27)])], \x27fortran_order\x27: False, \x27shape\x27: (1,), }",
      pack("V", 3) . pack("f", 1.25) . pack("d", 2.5));
  npy(1, "{\x27descr\x27: \x27<u8\x27, \x27fortran_order\x27: True, \x27shape\x27: (1, 3), }", pack("Q<3", 1, 2, 3));
  npy(1, "{\x27descr\x27: \x27|b1\x27, \x27fortran_order\x27: False, \x27shape\x27: (3,), }", "\x00\x01\x02");
  npy(1, "{\"shape\": (2L, 1L), \"descr\": \"=i8\", \"fortran_order\": False,}", pack("q<2", -1, 5));
  npy(1, "{\x27descr\x27: \x27>f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (1,), }", "\0\0\0\0");
' "$tmp/npy"

# Named by content, into both text targets and the npy target.
(cd "$tmp/text" && find . -type f -print0 | xargs -0 sha1sum) |
  while read -r h f; do
    cp "$tmp/text/$f" "$out/parse/$h"
    cp "$tmp/text/$f" "$out/check/$h"
  done
(cd "$tmp/npy" && find . -type f -print0 | xargs -0 sha1sum) |
  while read -r h f; do cp "$tmp/npy/$f" "$out/npy/$h"; done
echo "corpus: $(ls "$out/parse" | wc -l) parse, $(ls "$out/check" | wc -l) check, $(ls "$out/npy" | wc -l) npy seeds in $out" >&2
