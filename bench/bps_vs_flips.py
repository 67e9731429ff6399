#!/usr/bin/env python3
"""BPS patch size and whole-process time, modkit against Flips (issue 20, "BPS size").

Builds a deterministic set of edits of the 32 MiB Pokémon Stadium sample ROM with modkit's own
commands and manifests, then for each (base, edited) pair creates a BPS patch with
`modkit patch create` and with Flips, alternating the two as whole processes (round k runs
modkit first when k is even, Flips first when odd), median of the rounds, CPU (user + system,
wait4) and wall; the same for applying. Every patch is applied by both programs and must give
the edited ROM byte for byte (so modkit's patches are also checked by Flips' applier, and Flips'
by modkit's). The load average (`uptime`) is printed before and after: compare ratios within one
run, never absolute times between runs.

The pairs (all from `modkit sample DIR --game stadium`):
  palette   palette.set on model 1, palette 0: three colours (a few bytes in one entry)
  texture   texture.replace of model 2's texture 1 (RGBA16 16x16) by model 5's texture 1 (the
            PNG `stadium export` writes)
  models    palette.hsv on models 3..8, then `stadium extract` + `stadium repack --mode best`
            of the base with the edited entries' decoded files: six entries re-encoded with the smallest Yay0 parse
  shifted   texture.replace of model 0's texture 1 (RGBA16 16x16) by model 1's texture 0 (32x32
            PNG) with "resize": true: the first entry grows by the appended texels and every later
            archive entry moves (bytes inserted)
  scattered the edit `process_cost.py zstd` uses (not made by modkit): 40 ranges of 64 bytes
            rewritten across the image and a 4 KiB block copied from 0x1000 to 0x1800000

Usage:
  bench/bps_vs_flips.py --modkit BUILD/modkit --flips /work/peers/flips/flips-bps [--rounds 3]
                        [--keep DIR]   (keep the ROMs and patches there)

The Flips peer (public source, GPL v3, never vendored; built outside this tree). Flips is
Alcaro/Flips on GitHub. Only its BPS creation and application are needed. Its libbps-suf.cpp
(bps_create_delta and its helpers, commit 24e6c77) and bps_apply from its libbps.cpp were
transcribed into /work/peers/flips with the algorithm code unchanged; comments, the TEST_CORRECT /
TEST_PERF debug blocks, the progress callback, metadata output and the BPS_STANDALONE main left
out; the suffix sorter is libdivsufsort (Flips' own USE_DIVSUFSORT option; it is about twice as
fast as the bundled sais.cpp, so the peer is the faster Flips); the CRC-32 is zlib's (Flips
bundles a byte-wise table CRC; same values). A shim.h gives `struct mem`, a `file` class over a
memory buffer (len, read) and the bpserror enum; main.cpp is a minimal CLI:
  flips-bps create SOURCE TARGET PATCH   (reads both files whole, bps_create_delta with
                                          moremem=false as Flips' CLI default, writes the patch)
  flips-bps apply PATCH SOURCE OUT
Built with: cd /work/peers/flips && g++ -O2 -o flips-bps main.cpp libbps-suf.cpp libbps-apply.cpp
-ldivsufsort -lz (Debian's libdivsufsort-dev and zlib1g-dev).
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from process_cost import alternate, load, report, run_set  # noqa: E402


def mk(modkit, *args):
    return subprocess.run([modkit, *map(str, args)], check=True, capture_output=True, text=True).stdout


def manifest(folder, name, edits, out_rom):
    m = {"modkit": 1, "name": name, "game": "pokemon-stadium",
         "inputs": {"rom": {"path": "base.z64"}}, "outputs": {"rom": out_rom}, "edits": edits}
    path = folder / (name + ".json")
    path.write_text(json.dumps(m, indent=1))
    return path


def make_pairs(modkit, work):
    """Writes base.z64 and one edited ROM per pair into `work`; returns [(name, path)]."""
    mk(modkit, "sample", work / "game", "--game", "stadium")
    base = work / "base.z64"
    shutil.copyfile(work / "game" / "stadium" / "pokemon_stadium_sample.z64", base)
    # Replacement pictures: textures of other models, exported as PNG.
    mk(modkit, "stadium", "export", base, 5, work / "ex5")
    mk(modkit, "stadium", "export", base, 1, work / "ex1")
    pairs = []
    colours = {"1": "FFD700", "2": "00A0FF", "3": "#20C040"}
    mk(modkit, "apply", "-q", manifest(work, "palette", [{"op": "palette.set", "model": 1, "palette": 0, "colours": colours}], "palette.z64"))
    pairs.append(("palette", work / "palette.z64"))
    mk(modkit, "apply", "-q", manifest(work, "texture", [{"op": "texture.replace", "model": 2, "texture": 1, "png": "ex5/tex001.png"}], "texture.z64"))
    pairs.append(("texture", work / "texture.z64"))
    hsv = [{"id": f"m{m}", "op": "palette.hsv", "model": m, "palette": 0, "hue": 40 * m} for m in range(3, 9)]
    mk(modkit, "apply", "-q", manifest(work, "hsv", hsv, "hsv.z64"))
    mk(modkit, "stadium", "extract", base, work / "best")
    mk(modkit, "stadium", "extract", work / "hsv.z64", work / "hsv")
    for f in sorted((work / "hsv" / "entries").iterdir()):
        shutil.copyfile(f, work / "best" / "entries" / f.name)  # the six changed entries differ
    mk(modkit, "stadium", "repack", base, work / "best", work / "models.z64", "--mode", "best")
    pairs.append(("models", work / "models.z64"))
    mk(modkit, "apply", "-q", manifest(work, "shifted", [{"op": "texture.replace", "model": 0, "texture": 1, "png": "ex1/tex000.png", "resize": True}], "shifted.z64"))
    pairs.append(("shifted", work / "shifted.z64"))
    # The edit of `process_cost.py zstd`: 40 ranges of 64 bytes rewritten, a 4 KiB block copied.
    data = bytearray(base.read_bytes())
    for k in range(40):
        off = 0x100000 + k * 0x9F3D1
        data[off:off + 64] = bytes((x * 7 + k) & 0xFF for x in range(64))
    data[0x1800000:0x1801000] = data[0x1000:0x2000]
    (work / "scattered.z64").write_bytes(bytes(data))
    pairs.append(("scattered", work / "scattered.z64"))
    return base, pairs


def same(a, b, what):
    if pathlib.Path(a).read_bytes() != pathlib.Path(b).read_bytes():
        raise SystemExit(f"outputs differ: {what}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--modkit", required=True)
    p.add_argument("--flips", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--keep")
    p.add_argument("--pairs", default="palette,texture,models,shifted,scattered")
    a = p.parse_args()
    if a.rounds < 3:
        raise SystemExit("--rounds must be at least 3 (medians)")
    modkit, flips = str(pathlib.Path(a.modkit).resolve()), str(pathlib.Path(a.flips).resolve())
    print("load before:", load())
    with tempfile.TemporaryDirectory() as d:
        work = pathlib.Path(a.keep).resolve() if a.keep else pathlib.Path(d)
        work.mkdir(parents=True, exist_ok=True)
        base, pairs = make_pairs(modkit, work)
        wanted = a.pairs.split(",")
        rows = []
        for name, target in pairs:
            if name not in wanted:
                continue
            mp, fp = work / (name + ".modkit.bps"), work / (name + ".flips.bps")
            mc = [[modkit, "patch", "create", str(base), str(target), str(mp), "-q"]]
            fc = [[flips, "create", str(base), str(target), str(fp)]]
            run_set(mc); run_set(fc)
            ms, fs = os.path.getsize(mp), os.path.getsize(fp)
            print(f"{name}: patch bytes modkit {ms}, Flips {fs} ({ms / fs:.3f}x)")
            out, rc, rw = alternate("modkit", mc, "flips", fc, a.rounds)
            report(f"  {name}: create ({a.rounds} rounds)", out, rc, rw)
            rows.append((name, ms, fs, rc, rw))
            ma = [[modkit, "patch", "apply", str(mp), str(base), str(work / "m.out"), "-q"]]
            fa = [[flips, "apply", str(fp), str(base), str(work / "f.out")]]
            run_set(ma); run_set(fa)
            same(work / "m.out", target, name + ": modkit applying its patch")
            same(work / "f.out", target, name + ": Flips applying its patch")
            run_set([[modkit, "patch", "apply", str(fp), str(base), str(work / "x.out"), "-q"]])
            same(work / "x.out", target, name + ": modkit applying Flips' patch")
            run_set([[flips, "apply", str(mp), str(base), str(work / "x.out")]])
            same(work / "x.out", target, name + ": Flips applying modkit's patch")
            out, rc, rw = alternate("modkit", ma, "flips", fa, a.rounds)
            report(f"  {name}: apply ({a.rounds} rounds)", out, rc, rw)
        print("summary: pair, modkit bytes, Flips bytes, create CPU ratio, create wall ratio")
        for r in rows:
            print(f"  {r[0]:8s} {r[1]:7d} {r[2]:7d}  {r[3]:.2f}x  {r[4]:.2f}x")
    print("load after: ", load())


if __name__ == "__main__":
    main()
