#!/bin/sh
# Writes fuzz seeds that modkit itself produces: make_seeds.sh MODKIT SHARED_DIR OUT_DIR
set -eu
modkit=$1 shared=$2 out=$3
mkdir -p "$out/szp"
for f in ld_mario16.sprite pl_rotatefillline_rom.bin; do
  "$modkit" szp pack "$shared/corpus/yay0/$f" "$out/szp/$f.szp" --quiet
done
# BPS patches for fuzz_bps_apply: from a zero-filled source (which the target rebuilds) to
# corpus files, and between two ROMs (exercises every action kind).
mkdir -p "$out/bps"
head -c 32768 /dev/zero > "$out/bps/zero.src"
for f in ld_earthbound.sprite pl_rotatefillline_rom.bin; do
  "$modkit" patch create "$out/bps/zero.src" "$shared/corpus/yay0/$f" "$out/bps/zero_to_$f.bps" --quiet
done
"$modkit" patch create "$shared/corpus/yay0/pl_rotatefillline_rom.bin" \
  "$shared/corpus/yay0/pl_internalpalette_rom.bin" "$out/bps/rom_to_rom.bps" --quiet
rm "$out/bps/zero.src"
# F3DEX2 display lists and PNGs: handmade seeds committed under tests/fuzz/seeds/, plus PNGs
# `modkit texture decode` writes from corpus texel data (RGBA, grey, and paletted CI).
seeds=$(dirname "$0")/seeds
mkdir -p "$out/gbi" "$out/png" "$out/scene_wire"
cp "$seeds"/gbi/* "$out/gbi/"
# Scene wire data (scene_wire.hpp): an empty scene and a small one with every field set.
cp "$seeds"/scene_wire/* "$out/scene_wire/"
cp "$seeds"/png/* "$out/png/"
# Manifests: handmade hostile ones plus every example and ready-made mod of the source tree.
mkdir -p "$out/manifest"
cp "$seeds"/manifest/* "$out/manifest/"
for f in "$seeds"/../../../examples/*/*.json "$seeds"/../../../patches/*/*.json; do
  cp "$f" "$out/manifest/$(basename "$(dirname "$f")")_$(basename "$f")"
done
"$modkit" texture decode "$shared/corpus/yay0/pl_fb16_image.rgba16" "$out/png/fb16_32x24.png" \
  --format rgba16 --width 32 --height 24 --offset 76800 --quiet
"$modkit" texture decode "$shared/corpus/yay0/pl_frame.i4" "$out/png/frame_i4.png" --format i4 --width 40 --height 30 \
  --quiet
"$modkit" texture decode "$shared/corpus/yay0/ld_mario16.sprite" "$out/png/mario_ci8.png" --format ci8 --width 16 \
  --height 16 --tlut "$shared/corpus/yay0/ld_mario16.sprite" --tlut-offset 4096 --tlut-count 256 --quiet
"$modkit" texture decode "$shared/corpus/yay0/ld_mario16.sprite" "$out/png/mario_ci4.png" --format ci4 --width 16 \
  --height 16 --tlut "$shared/corpus/yay0/ld_mario16.sprite" --tlut-offset 4096 --tlut-count 16 --quiet
"$modkit" sample "$out/totem-sample" --game totem --quiet
"$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DGC" "$out/totem-sample/totem/SAMPLE.NGC" "$out/totem-skin/gc" --type SKIN --quiet
"$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DPS" "$out/totem-sample/totem/SAMPLE.NPS" "$out/totem-skin/ps2" --type SKIN --quiet
# fuzz_totem_lod: the LOD and NODE records of both sample archives.
for t in LOD NODE; do
  "$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DGC" "$out/totem-sample/totem/SAMPLE.NGC" "$out/totem-lod/gc-$t" --type $t --quiet
  "$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DPS" "$out/totem-sample/totem/SAMPLE.NPS" "$out/totem-lod/ps2-$t" --type $t --quiet
done
for t in BITMAP MATERIAL MATERIALANIM MATERIALOBJ; do
  "$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DGC" "$out/totem-sample/totem/SAMPLE.NGC" "$out/totem-bitmap/gc-$t" --type $t --quiet
  "$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DPS" "$out/totem-sample/totem/SAMPLE.NPS" "$out/totem-bitmap/ps2-$t" --type $t --quiet
done
"$modkit" sample "$out/stadium-sample" --game stadium --quiet && mkdir -p "$out/stadium-archive" && dd if="$out/stadium-sample/stadium/pokemon_stadium_sample.z64" of="$out/stadium-archive/model_archive.bin" bs=16 skip=599040 count=4096 2>/dev/null && "$modkit" stadium extract "$out/stadium-sample/stadium/pokemon_stadium_sample.z64" "$out/stadium-extract" --quiet && rm "$out/stadium-sample/stadium/pokemon_stadium_sample.z64"
"$modkit" sample "$out" --game shred --quiet && "$modkit" shred pak extract "$out/shred/char_sample.pak" "$out/shred-entries" --quiet
# fuzz_stadium_model: the sample ROM's model FRAGMENTs, plus model 2 after a texture replace in
# fork mode (appended palette, TLUT DL and palette table).
mkdir -p "$out/stadium-models" && cp "$out/stadium-extract/entries/"*.fragment "$out/stadium-models/"
"$modkit" sample "$out/stadium-fork" --game stadium --quiet
"$modkit" stadium textures "$out/stadium-fork/stadium/pokemon_stadium_sample.z64" 2 "$out/stadium-fork/png" --quiet
"$modkit" stadium texture replace "$out/stadium-fork/stadium/pokemon_stadium_sample.z64" 2 "$out/stadium-fork/fork.z64" \
  --texture 0 --png "$out/stadium-fork/png/tex000.png" --mode fork --quiet
"$modkit" stadium extract "$out/stadium-fork/fork.z64" "$out/stadium-fork/extract" --quiet
cp "$out/stadium-fork/extract/entries/002.fragment" "$out/stadium-models/002_fork.fragment" && rm -r "$out/stadium-fork"
# Skinned scenes for fuzz_scene_import: a sample SHRED mesh (96 vertices, 3 NaN normals) exported
# as GLB (our glTF writer) and ASCII FBX (Assimp's fbxa exporter).
mkdir -p "$out/scene"
"$modkit" shred export "$out/shred/char_sample.pak" skater01 3 "$out/scene/skater01_mesh3.glb" --quiet
"$modkit" shred export "$out/shred/char_sample.pak" skater01 3 "$out/scene/skater01_mesh3.fbx" --quiet
# Issue 21 targets. fuzz_totem_mesh: the MESH records of both sample archives; fuzz_totem_names:
# their name tables (copied with the sample above).
"$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DGC" "$out/totem-sample/totem/SAMPLE.NGC" "$out/totem-mesh/gc" --type MESH --quiet
"$modkit" totem extract "$out/totem-sample/totem/SAMPLE.DPS" "$out/totem-sample/totem/SAMPLE.NPS" "$out/totem-mesh/ps2" --type MESH --quiet
mkdir -p "$out/totem-names" && cp "$out/totem-sample/totem/SAMPLE.NGC" "$out/totem-sample/totem/SAMPLE.NPS" "$out/totem-names/"
# fuzz_zstd_patch: MZPT patches from a zero-filled source (which the target rebuilds) to sample
# files, and between the two sample PAKs' first 64 KiB (every zstd block kind).
mkdir -p "$out/zpatch"
head -c 65536 /dev/zero > "$out/zpatch/zero.src"
head -c 65536 "$out/shred/char_sample.pak" > "$out/zpatch/char.bin"
head -c 65536 "$out/shred/layer_sample.pak" > "$out/zpatch/layer.bin"
"$modkit" patch create "$out/zpatch/zero.src" "$out/zpatch/char.bin" "$out/zpatch/zero_to_char.zpatch" --quiet
"$modkit" patch create "$out/zpatch/zero.src" "$out/totem-sample/totem/SAMPLE.DGC" "$out/zpatch/zero_to_dgc.zpatch" --quiet
"$modkit" patch create "$out/zpatch/zero.src" "$out/zpatch/zero.src" "$out/zpatch/zero_to_zero.zpatch" --quiet
"$modkit" patch create "$out/zpatch/char.bin" "$out/zpatch/layer.bin" "$out/zpatch/char_to_layer.zpatch" --quiet
# fuzz_vcdiff: VCDIFF patches from the same zero-filled source (LZMA sections and plain ones,
# source copies, target copies through the address caches), small windows not needed: one each.
mkdir -p "$out/vcdiff"
"$modkit" patch create "$out/zpatch/zero.src" "$out/zpatch/char.bin" "$out/vcdiff/zero_to_char.vcdiff" --quiet
"$modkit" patch create "$out/zpatch/zero.src" "$out/zpatch/char.bin" "$out/vcdiff/zero_to_char_plain.vcdiff" --no-secondary --quiet
"$modkit" patch create "$out/zpatch/zero.src" "$out/totem-sample/totem/SAMPLE.DGC" "$out/vcdiff/zero_to_dgc.vcdiff" --quiet
"$modkit" patch create "$out/zpatch/zero.src" "$out/zpatch/zero.src" "$out/vcdiff/zero_to_zero.vcdiff" --quiet
rm "$out/zpatch/zero.src" "$out/zpatch/char.bin" "$out/zpatch/layer.bin"
# fuzz_rom_header: the sample ROM's boot area and the first 64 KiB it checksums (the rest reads as
# zero padding), in all three byte orders; and the boot area alone.
"$modkit" sample "$out/rom-sample" --game stadium --quiet
mkdir -p "$out/rom-header"
head -c 69632 "$out/rom-sample/stadium/pokemon_stadium_sample.z64" > "$out/rom-header/sample.z64"
head -c 8192 "$out/rom-sample/stadium/pokemon_stadium_sample.z64" > "$out/rom-header/boot_only.z64"
"$modkit" rom normalize "$out/rom-header/sample.z64" "$out/rom-header/sample.v64" --order v64 --quiet
"$modkit" rom normalize "$out/rom-header/sample.z64" "$out/rom-header/sample.n64" --order n64 --quiet
rm -r "$out/rom-sample"
# fuzz_texel: an 8-byte case header (format, width-1, height-1, TLUT count-1, flags, bank; see
# fuzz_texel.cpp) before texel bytes from the sample model FRAGMENTs, one seed per format.
mkdir -p "$out/texel"
for f in 0 1 2 3 4 5 6 7 8; do
  printf "\\$(printf %03o "$f")\\017\\017\\017\\00$((f % 4))\\00$((f % 3))\\000\\000" > "$out/texel/case$f.bin"
  dd if="$out/stadium-models/002.fragment" bs=1 skip=256 count=1600 2>/dev/null >> "$out/texel/case$f.bin"
done
