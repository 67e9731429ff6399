#!/bin/sh
# Writes fuzz seeds that modkit itself produces: make_seeds.sh MODKIT SHARED_DIR OUT_DIR
set -eu
modkit=$1 shared=$2 out=$3
mkdir -p "$out/szp"
for f in ld_mario16.sprite pl_rotatefillline_rom.bin; do
  "$modkit" szp pack "$shared/corpus/yay0/$f" "$out/szp/$f.szp" --quiet
done
