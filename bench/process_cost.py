#!/usr/bin/env python3
"""Whole-process cost of modkit against its peers, alternating runs (issue 20).

Build scripts call a compressor once per file, so what counts is a whole process: exec, dynamic
loading, start-up, the work, writing the output, exit. This script runs modkit and a peer
alternately (round k runs modkit first when k is even, the peer first when odd), takes the
CPU time (user + system, from wait4) and the wall time of each process, and prints the median of
the rounds and the ratio modkit / peer. It checks that both produce the same bytes. The load
average (`uptime`) is printed before and after: the machine is shared, so compare ratios within
one run, never absolute times between runs.

Usage:
  bench/process_cost.py startup --modkit BUILD/modkit --crunch64 PEERS/crunch64 [--rounds 5]
  bench/process_cost.py corpus  --modkit BUILD/modkit --crunch64 PEERS/crunch64 [--rounds 5]
  bench/process_cost.py batch   --modkit BUILD/modkit [--rounds 5]
  bench/process_cost.py zstd    --modkit BUILD/modkit [--rounds 5]   (needs the zstd program)

startup: `modkit yay0 compress` of a 3-byte file vs `crunch64 compress yay0` (200 processes
per round). corpus: the 18 files of ../shared/corpus/yay0, one process per file, compress then
decompress. batch: `modkit yay0 compress FILES... --out-dir D -j 1` vs `-j 2` (wall time).
zstd: `modkit patch create/apply --format zstd` vs `zstd -9 --patch-from` / `zstd -d --patch-from`
on the 32 MiB sample ROM and an edited copy.

The crunch64 peer (public source, never vendored; built outside this tree). crunch64 is
decompals/crunch64 on GitHub (MIT). Its CLI (cli/src/main.rs) parses arguments with clap; where
crates cannot be fetched, the CLI-equivalent is its library's yay0.rs and utils.rs compiled with
rustc and a ten-line main that reads `compress|decompress yay0 IN OUT` from std::env::args,
reads the input whole and writes the output through a BufWriter as the CLI does:
  mkdir -p /work/peers/crunch64/src; copy lib/src/yay0.rs and lib/src/utils.rs there (drop the
  c_bindings, python_bindings and tests modules), write lib.rs declaring `pub mod utils; pub mod
  yay0;` and the Crunch64Error enum, and main.rs as described, then
  rustc --edition 2021 -C opt-level=3 --crate-type=rlib --crate-name crunch64 src/lib.rs -o libcrunch64.rlib
  rustc --edition 2021 -C opt-level=3 --extern crunch64=libcrunch64.rlib src/main.rs -o crunch64
With crates available, `cargo build --release -p crunch64-cli` in a clone gives the real CLI
(clap adds well under a millisecond of start-up).
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = (HERE.parent.parent / "shared" / "corpus" / "yay0").resolve()


def load():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run_one(argv):
    """(cpu seconds, wall seconds) of one process; raises if it fails."""
    t = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("failed: " + " ".join(map(str, argv)))
    return ru.ru_utime + ru.ru_stime, wall


def run_set(commands):
    cpu = wall = 0.0
    for argv in commands:
        c, w = run_one(argv)
        cpu += c
        wall += w
    return cpu, wall


def alternate(name_a, cmds_a, name_b, cmds_b, rounds, per=1):
    res = {name_a: [], name_b: []}
    for k in range(rounds):
        order = [(name_a, cmds_a), (name_b, cmds_b)] if k % 2 == 0 else [(name_b, cmds_b), (name_a, cmds_a)]
        for name, cmds in order:
            res[name].append(run_set(cmds))
    out = {}
    for name, runs in res.items():
        out[name] = (statistics.median(r[0] for r in runs) / per, statistics.median(r[1] for r in runs) / per)
    # Ratio of the medians and median of the per-round ratios (the steadier one under load).
    ratios_cpu = [a[0] / b[0] for a, b in zip(res[name_a], res[name_b])]
    ratios_wall = [a[1] / b[1] for a, b in zip(res[name_a], res[name_b])]
    return out, statistics.median(ratios_cpu), statistics.median(ratios_wall)


def report(title, out, rc, rw, unit=1e3, unit_name="ms"):
    print(title)
    for name, (c, w) in out.items():
        print(f"  {name:10s} cpu {c * unit:9.3f} {unit_name}   wall {w * unit:9.3f} {unit_name}")
    print(f"  ratio (median of per-round ratios): cpu {rc:.2f}x   wall {rw:.2f}x")


def same_bytes(a, b, what):
    if pathlib.Path(a).read_bytes() != pathlib.Path(b).read_bytes():
        raise SystemExit(f"outputs differ: {what}")


def corpus_files():
    return sorted(p for p in CORPUS.iterdir() if p.is_file())


def cmd_startup(a, tmp):
    tiny = tmp / "three.bin"
    tiny.write_bytes(b"abc")
    n = 200
    m = [[a.modkit, "yay0", "compress", str(tiny), str(tmp / "m.yay0")]] * n
    c = [[a.crunch64, "compress", "yay0", str(tiny), str(tmp / "c.yay0")]] * n
    run_one(m[0]); run_one(c[0])
    same_bytes(tmp / "m.yay0", tmp / "c.yay0", "3-byte file")
    out, rc, rw = alternate("modkit", m, "crunch64", c, a.rounds, per=n)
    report(f"yay0 compress, 3-byte file, per process ({n} processes a round, {a.rounds} rounds)", out, rc, rw)


def cmd_corpus(a, tmp):
    files = corpus_files()
    (tmp / "m").mkdir(); (tmp / "c").mkdir()
    mc = [[a.modkit, "yay0", "compress", str(f), str(tmp / "m" / (f.name + ".yay0"))] for f in files]
    cc = [[a.crunch64, "compress", "yay0", str(f), str(tmp / "c" / (f.name + ".yay0"))] for f in files]
    run_set(mc); run_set(cc)
    for f in files:
        same_bytes(tmp / "m" / (f.name + ".yay0"), tmp / "c" / (f.name + ".yay0"), f.name)
    out, rc, rw = alternate("modkit", mc, "crunch64", cc, a.rounds)
    report(f"yay0 compress, corpus ({len(files)} files), one process per file, whole corpus", out, rc, rw)
    md = [[a.modkit, "yay0", "decompress", str(tmp / "c" / (f.name + ".yay0")), str(tmp / "m" / f.name)] for f in files]
    cd = [[a.crunch64, "decompress", "yay0", str(tmp / "c" / (f.name + ".yay0")), str(tmp / "c" / f.name)] for f in files]
    run_set(md); run_set(cd)
    for f in files:
        same_bytes(tmp / "m" / f.name, f, f.name)
    out, rc, rw = alternate("modkit", md, "crunch64", cd, a.rounds)
    report(f"yay0 decompress, corpus ({len(files)} files), one process per file, whole corpus", out, rc, rw)


def cmd_batch(a, tmp):
    files = [str(f) for f in corpus_files()]
    (tmp / "j1").mkdir(); (tmp / "j2").mkdir()
    j1 = [[a.modkit, "yay0", "compress", *files, "--out-dir", str(tmp / "j1"), "-j", "1", "-q"]]
    j2 = [[a.modkit, "yay0", "compress", *files, "--out-dir", str(tmp / "j2"), "-j", "2", "-q"]]
    run_set(j1); run_set(j2)
    for f in corpus_files():
        same_bytes(tmp / "j1" / (f.name + ".yay0"), tmp / "j2" / (f.name + ".yay0"), f.name)
    out, rc, rw = alternate("-j 2", j2, "-j 1", j1, a.rounds)
    report(f"yay0 compress, corpus ({len(files)} files) in one process", out, rc, rw)
    print(f"  speed-up of -j 2 over -j 1 (wall): {1 / rw:.2f}x")


def cmd_zstd(a, tmp):
    game = tmp / "game"
    subprocess.run([a.modkit, "sample", str(game), "--game", "stadium"], check=True, capture_output=True)
    src = game / "stadium" / "pokemon_stadium_sample.z64"
    data = bytearray(src.read_bytes())
    # A large edit: 40 ranges of 64 bytes spread over the image, and a 4 KiB block moved.
    for k in range(40):
        off = 0x100000 + k * 0x9F3D1
        data[off:off + 64] = bytes((x * 7 + k) & 0xFF for x in range(64))
    data[0x1800000:0x1801000] = data[0x1000:0x2000]
    dst = tmp / "edited.z64"
    dst.write_bytes(bytes(data))
    level = str(a.level)
    mk = [[a.modkit, "patch", "create", str(src), str(dst), str(tmp / "m.mzpt"), "--format", "zstd", "--level", level, "-q"]]
    zs = [["zstd", "-q", "-f", "-" + level, "--patch-from=" + str(src), str(dst), "-o", str(tmp / "z.zst")]]
    run_set(mk); run_set(zs)
    print(f"  patch sizes: modkit {os.path.getsize(tmp / 'm.mzpt')} B, zstd -{level} {os.path.getsize(tmp / 'z.zst')} B")
    out, rc, rw = alternate("modkit", mk, "zstd", zs, a.rounds)
    report(f"zstd patch create, 32 MiB sample ROM, level {level}", out, rc, rw)
    ma = [[a.modkit, "patch", "apply", str(tmp / "m.mzpt"), str(src), str(tmp / "m.out"), "-q"]]
    za = [["zstd", "-q", "-f", "-d", "--patch-from=" + str(src), str(tmp / "z.zst"), "-o", str(tmp / "z.out")]]
    run_set(ma); run_set(za)
    same_bytes(tmp / "m.out", dst, "modkit apply"); same_bytes(tmp / "z.out", dst, "zstd apply")
    out, rc, rw = alternate("modkit", ma, "zstd", za, a.rounds)
    report("zstd patch apply", out, rc, rw)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["startup", "corpus", "batch", "zstd"])
    p.add_argument("--modkit", required=True)
    p.add_argument("--crunch64", default="crunch64")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--level", type=int, default=9)
    a = p.parse_args()
    if a.rounds < 3:
        raise SystemExit("--rounds must be at least 3 (medians)")
    a.modkit = str(pathlib.Path(a.modkit).resolve())
    print("load before:", load())
    with tempfile.TemporaryDirectory() as d:
        globals()["cmd_" + a.what](a, pathlib.Path(d))
    print("load after: ", load())


if __name__ == "__main__":
    main()
