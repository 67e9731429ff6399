#!/usr/bin/env python3
"""VCDIFF patches: modkit against xdelta3, the program players use (issue 30 item 8).

The pairs are the examples' own products, made by `modkit demo` in a temporary folder: each
example's output file against its base file (a recoloured and a mesh-replaced Stadium ROM,
a reweighted TotemTech DGC, a SHRED PAK with a replaced mesh), plus a 32 MiB ROM with 16 scattered
1 KiB edits. For each pair it prints the patch sizes of

  modkit patch create … .vcdiff     (and --no-secondary)
  xdelta3 -9 -e -s SOURCE TARGET    (its default LZMA secondary and its file-name header)
  xdelta3 -9 -S none                (no secondary compression)
  modkit's .bps and .zpatch         (for scale)

the ratio modkit / xdelta3 -9, and the CPU time (user + system) of both creating it (median of
--rounds). Every modkit patch is applied with `xdelta3 -d` and compared with the target.

Usage:
  bench/vcdiff_vs_xdelta3.py --modkit BUILD/modkit [--xdelta3 /usr/bin/xdelta3] [--rounds 3]
"""
import argparse
import os
import pathlib
import random
import statistics
import subprocess
import tempfile


def cpu_of(argv):
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                                        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("failed: " + " ".join(argv))
    return ru.ru_utime + ru.ru_stime


def pairs(demo: pathlib.Path, work: pathlib.Path):
    ex = demo / "examples"
    yield "stadium-recolour ROM", ex / "stadium-recolour/base/stadium/pokemon_stadium_sample.z64", ex / "stadium-recolour/out/stadium-recolour.z64"
    yield "stadium-mesh ROM", ex / "stadium-mesh/base/stadium/pokemon_stadium_sample.z64", ex / "stadium-mesh/out/stadium-mesh.z64"
    yield "totem-reweight DGC", ex / "totem-reweight/base/totem/SAMPLE.DGC", ex / "totem-reweight/out/SAMPLE.DGC"
    yield "shred-replace-fbx PAK", ex / "shred-replace-fbx/base/shred/char_sample.pak", ex / "shred-replace-fbx/out/char_sample.pak"
    rom = ex / "stadium-recolour/base/stadium/pokemon_stadium_sample.z64"
    data = bytearray(rom.read_bytes())
    r = random.Random(7)
    for _ in range(16):
        at = r.randrange(0, len(data) - 1024)
        data[at:at + 1024] = bytes(r.getrandbits(8) for _ in range(1024))
    scattered = work / "scattered.z64"
    scattered.write_bytes(data)
    yield "ROM, 16 x 1 KiB random edits", rom, scattered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modkit", required=True)
    ap.add_argument("--xdelta3", default="/usr/bin/xdelta3")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    modkit = str(pathlib.Path(a.modkit).resolve())
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(subprocess.run([a.xdelta3, "-V"], capture_output=True, text=True).stderr.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        subprocess.run([modkit, "demo", str(tmp / "demo"), "-q"], check=True, cwd=tmp, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        print(f"{'pair':32} {'target':>10} {'vcdiff':>8} {'no-sec':>8} {'xd3 -9':>8} {'xd3 -S':>8} {'ratio':>6} "
              f"{'bps':>8} {'zpatch':>8} {'cpu modkit':>10} {'cpu xd3':>8}")
        for name, src, dst in pairs(tmp / "demo", tmp):
            out = {}
            for key, argv in {
                "vcdiff": [modkit, "patch", "create", str(src), str(dst), str(tmp / "p.vcdiff")],
                "nosec": [modkit, "patch", "create", str(src), str(dst), str(tmp / "n.vcdiff"), "--no-secondary"],
                "bps": [modkit, "patch", "create", str(src), str(dst), str(tmp / "p.bps")],
                "zpatch": [modkit, "patch", "create", str(src), str(dst), str(tmp / "p.zpatch")],
                "xd9": [a.xdelta3, "-9", "-e", "-f", "-s", str(src), str(dst), str(tmp / "x9.xd")],
                "xdS": [a.xdelta3, "-9", "-S", "none", "-e", "-f", "-s", str(src), str(dst), str(tmp / "xs.xd")],
            }.items():
                times = [cpu_of(argv) for _ in range(a.rounds if key in ("vcdiff", "xd9") else 1)]
                out[key] = (pathlib.Path(argv[-1] if key != "nosec" else argv[-2]).stat().st_size, statistics.median(times))
            for patch in ("p.vcdiff", "n.vcdiff"):
                subprocess.run([a.xdelta3, "-d", "-f", "-s", str(src), str(tmp / patch), str(tmp / "back")], check=True)
                if (tmp / "back").read_bytes() != dst.read_bytes():
                    raise SystemExit(f"{name}: xdelta3 -d of modkit's {patch} differs from the target")
            ratio = out["vcdiff"][0] / out["xd9"][0]
            print(f"{name:32} {dst.stat().st_size:10} {out['vcdiff'][0]:8} {out['nosec'][0]:8} {out['xd9'][0]:8} "
                  f"{out['xdS'][0]:8} {ratio:6.2f} {out['bps'][0]:8} {out['zpatch'][0]:8} "
                  f"{out['vcdiff'][1]:9.2f}s {out['xd9'][1]:7.2f}s")
    print("every modkit patch applied by xdelta3 -d gives the target")


if __name__ == "__main__":
    main()
