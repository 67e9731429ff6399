#!/usr/bin/env python3
"""The everyday Stadium commands against the programs that set their floor (issue 31).

What a user runs most is `apply` of a small mod and the listing commands, on a 32 MiB ROM. Each
is measured as whole processes (CPU = user + system from wait4, wall, peak RSS from GNU time when
installed, see run_one), alternating with
its floor, median of the rounds, and printed as a ratio:

  apply (no patch, no report)   vs  cp ROM OUT                (writing a 32 MiB image)
  apply (BPS + report)          vs  Flips creating the same BPS alone (the peer a user would pick)
  apply --dry-run               vs  sha1sum ROM               (reading and hashing it)
  stadium list / stadium show   vs  cat ROM > /dev/null       (reading it)
  modkit demo                   wall time of one run (goal: 5 s on 2 idle cores)

The mod is examples/stadium-recolour (four palette/texture edits), set up by `modkit demo` in a
temporary folder. Output bytes are compared with the demo's own output (same mod, same bytes).
The load average is printed before and after: compare ratios within one run.

Usage:
  bench/everyday.py --modkit BUILD/modkit [--flips /work/peers/flips/flips-bps] [--rounds 5]
(Flips: its own CLI built from its repository with `make TARGET=cli`, or the transcribed flips-bps
of bench/bps_vs_flips.py; without it that line is skipped.)
"""
import argparse
import filecmp
import os
import pathlib
import statistics
import subprocess
import tempfile
import hashlib
import time


def load():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# A child's ru_maxrss starts at its parent's resident size when it execs (Linux keeps the
# high-water mark across exec), so a child of this script reports at least the script's own
# ~19 MiB. GNU time's %M is the peak of the program alone (its own child, forked from a 2 MiB
# process): when /usr/bin/time is there (Debian package `time`) the peak RSS is taken from a
# second run through it. CPU and wall always come from the direct run: GNU time's own fork and
# exec would add a millisecond or two to both sides of every ratio.
GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def spawn(argv, cwd, stdout):
    """(exit code, cpu s, wall s, ru_maxrss KiB) of one process."""
    t = time.perf_counter()
    actions = [(os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    old = os.getcwd()
    if cwd:
        os.chdir(cwd)
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    finally:
        os.chdir(old)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    return os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss


def run_one(argv, cwd=None, stdout=os.devnull):
    """(cpu s, wall s, peak RSS KiB) of one process; raises when it fails."""
    code, cpu, wall, rss = spawn(argv, cwd, stdout)
    if code != 0:
        raise SystemExit("failed: " + " ".join(map(str, argv)))
    if GNU_TIME:
        fd, rss_file = tempfile.mkstemp(prefix="everyday-rss-")
        os.close(fd)
        code, _, _, _ = spawn([GNU_TIME, "-f", "%M", "-o", rss_file] + list(argv), cwd, stdout)
        with open(rss_file) as f:
            text = f.read().split()
        os.unlink(rss_file)
        if code != 0 or not text or not text[-1].isdigit():
            raise SystemExit("failed under " + GNU_TIME + ": " + " ".join(map(str, argv)))
        rss = int(text[-1])
    return cpu, wall, rss


def compare(title, a, b, rounds, cwd):
    """a, b: (name, argv). Alternates them; prints medians and the median per-round ratio."""
    runs = {a[0]: [], b[0]: []}
    for k in range(rounds):
        for name, argv in ([a, b] if k % 2 == 0 else [b, a]):
            runs[name].append(run_one(argv, cwd))
    print(title)
    for name, rs in runs.items():
        print(f"  {name:28s} cpu {statistics.median(r[0] for r in rs) * 1e3:8.1f} ms   wall "
              f"{statistics.median(r[1] for r in rs) * 1e3:8.1f} ms   peak RSS {statistics.median(r[2] for r in rs) / 1024:6.1f} MiB")
    rc = statistics.median(x[0] / max(y[0], 1e-4) for x, y in zip(runs[a[0]], runs[b[0]]))
    rw = statistics.median(x[1] / max(y[1], 1e-4) for x, y in zip(runs[a[0]], runs[b[0]]))
    print(f"  ratio {a[0]} / {b[0]}: cpu {rc:.2f}x   wall {rw:.2f}x")


def md5_by_blocks(path):
    """The file's md5, read a block at a time (the script's own peak RSS stays small)."""
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def bps_metadata_bytes(patch):
    """The bytes of a BPS patch's metadata field, its length number included (bps.md §1)."""
    pos = 4

    def number():
        nonlocal pos
        value, shift = 0, 1
        while True:
            x = patch[pos]
            pos += 1
            value += (x & 0x7F) * shift
            if x & 0x80:
                return value
            shift <<= 7
            value += shift

    number(), number()
    start = pos
    length = number()
    return pos - start + length


def flips_create(flips, source, target, patch):
    """Flips' own CLI (`flips --create --bps-delta`, its default BPS style), or the transcribed
    `flips-bps create` of bench/bps_vs_flips.py."""
    if pathlib.Path(flips).name.endswith("-bps"):
        return [flips, "create", source, target, patch]
    return [flips, "--create", "--bps-delta", source, target, patch]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--modkit", required=True)
    p.add_argument("--flips")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--before")
    a = p.parse_args()
    for label, path in ([("before", a.before)] if a.before else []) + [("modkit", a.modkit)]:
        print(f"==== {label}: {path}")
        measure(str(pathlib.Path(path).resolve()), a)


def measure(modkit, a):
    print("load before:", load())
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        os.environ["MODKIT_CACHE_DIR"] = str(tmp / "cache")  # the runs' own digest cache
        cpu, wall, rss = run_one([modkit, "demo", str(tmp / "demo"), "-q"])
        print(f"modkit demo: wall {wall:.2f} s, cpu {cpu:.2f} s, peak RSS {rss / 1024:.1f} MiB (goal: wall <= 5 s)")
        ex = tmp / "demo" / "examples" / "stadium-recolour"
        rom = "base/stadium/pokemon_stadium_sample.z64"
        # Compared a block at a time: a child's peak RSS (wait4) starts at this process's own
        # high-water mark (exec keeps it), so the script never holds an image in memory.
        expected = ex / "patched-stadium-recolour.z64"
        full = (ex / "mod.json").read_text()
        bare = full.replace('"patches": ["bps"], "report": "out/report" ', "").replace(', }', ' }')
        assert bare != full, "the example's outputs line changed: update this script"
        (ex / "bare.json").write_text(bare)
        run_one([modkit, "apply", "bare.json", "-q"], ex)
        assert filecmp.cmp(ex / "out" / "stadium-recolour.z64", expected, shallow=False), "apply's output differs"
        compare("apply, no patch and no report (goal <= 5x cp)",
                ("modkit apply", [modkit, "apply", "bare.json", "-q"]), ("cp", ["cp", rom, "copy.z64"]), a.rounds, ex)
        # A manifest that declares its base's md5 (as `manifest new` writes them): hashed each
        # run with the digest cache off, found by the file's stamp with it on (the base must be
        # settle_seconds old to be stored: hence the pause, then one run that stores it).
        hashed = bare.replace('"path": "base/stadium/pokemon_stadium_sample.z64"',
                              '"path": "base/stadium/pokemon_stadium_sample.z64", "md5": "%s"'
                              % md5_by_blocks(ex / rom))
        assert hashed != bare, "the example's input line changed: update this script"
        (ex / "hashed.json").write_text(hashed)
        time.sleep(2.5)
        run_one([modkit, "apply", "hashed.json", "-q"], ex)
        compare("apply declaring md5, digest cache off vs on (the cache's gain)",
                ("cache off", ["env", "MODKIT_DIGEST_CACHE=off", modkit, "apply", "hashed.json", "-q"]),
                ("cache on", ["env", "MODKIT_DIGEST_CACHE=on", modkit, "apply", "hashed.json", "-q"]), a.rounds, ex)
        compare("apply declaring md5, warm digest cache (goal <= 5x cp)",
                ("modkit apply", [modkit, "apply", "hashed.json", "-q"]), ("cp", ["cp", rom, "copy.z64"]), a.rounds, ex)
        if a.flips:
            run_one([modkit, "apply", "mod.json", "-q"], ex)
            out = "out/stadium-recolour.z64"
            compare("apply with BPS and report (goal <= 0.5x Flips' BPS alone; peak RSS <= 96 MiB)",
                    ("modkit apply", [modkit, "apply", "mod.json", "-q"]),
                    ("flips create", flips_create(a.flips, rom, out, "flips.bps")), a.rounds, ex)
            bps = (ex / "out" / "stadium-recolour.z64.bps")
            if bps.exists():
                meta = bps_metadata_bytes(bps.read_bytes())
                print(f"  patch bytes: modkit {bps.stat().st_size} ({meta} of them the metadata naming the mod; "
                      f"{bps.stat().st_size - meta} without it), Flips {(ex / 'flips.bps').stat().st_size} (no metadata)")
        compare("apply --dry-run (goal <= 1.5x sha1sum)",
                ("modkit apply --dry-run", [modkit, "apply", "--dry-run", "mod.json", "-q"]),
                ("sha1sum", ["sha1sum", rom]), a.rounds, ex)
        compare("stadium list (goal <= 3x cat)", ("modkit stadium list", [modkit, "stadium", "list", rom]),
                ("cat", ["cat", rom]), a.rounds, ex)
        compare("stadium show 1 (goal <= 3x cat)", ("modkit stadium show", [modkit, "stadium", "show", rom, "1"]),
                ("cat", ["cat", rom]), a.rounds, ex)
    print("load after:", load())


if __name__ == "__main__":
    main()
