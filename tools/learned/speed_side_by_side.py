#!/usr/bin/python3
"""Maul's trainer against PyTorch on this machine, side by side in one run
(tools/learned/README.md, docs/performance.md "Training").

Runs `maul bench learned-train` (Holden's default networks on the bench's
database; its first line gives the data's dimensions), then
torch_speed.py on those dimensions, `rounds` times interleaved, so both see
the same day, machine and load; prints each stage's iterations per second
at 1 and 2 threads, the best of the rounds (the figure load dilutes
least), Maul / PyTorch, and the load average before and after.

  bazel build //tools/cli:maul
  /usr/bin/python3 tools/learned/speed_side_by_side.py [--rounds 2] [--maul bazel-bin/tools/cli/maul]
      [--before OTHER_MAUL]
--before adds another maul binary's rows to each round (an older trainer,
say), as a column of its own.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

STAGES = ["compressor+decompressor", "stepper", "projector"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--maul", default="bazel-bin/tools/cli/maul")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--before", help="another maul binary, run in each round too (its own column)")
    args = ap.parse_args()
    best = {}  # (who, threads, stage) -> it/s
    load0 = os.getloadavg()
    dims = None
    for r in range(args.rounds):
        runs = [("maul", args.maul)] + ([("before", args.before)] if args.before else [])
        for who, binary in runs:
            out = subprocess.run([binary, "bench", "learned-train"], check=True, capture_output=True, text=True).stdout
            sys.stdout.write("[%s] " % who + out.replace("\n", "\n[%s] " % who).rstrip("[%s] " % who) + "\n")
            for line in out.splitlines():
                if line.startswith("learned-train data:"):
                    dims = line.split(":", 1)[1].split()
                m = re.match(r"learned-train-(\S+)-t(\d+)\s+([\d.]+) it/s", line)
                if m:
                    key = (who, int(m.group(2)), m.group(1))
                    best[key] = max(best.get(key, 0.0), float(m.group(3)))
        if dims is None:
            sys.exit("speed_side_by_side: maul printed no data line")
        keep = []
        for k in range(0, len(dims), 2):
            if dims[k] in ("--features", "--outputs", "--bones", "--latent", "--frames", "--passing", "--batch", "--width"):
                keep += dims[k:k + 2]
        out = subprocess.run(["/usr/bin/python3", os.path.join(here, "torch_speed.py")] + keep + ["--threads", "1", "2"],
                             check=True, capture_output=True, text=True).stdout
        sys.stdout.write(out)
        for line in out.splitlines():
            m = re.match(r"torch threads (\d+) (\S+)\s+([\d.]+) it/s", line)
            if m:
                key = ("torch", int(m.group(1)), m.group(2))
                best[key] = max(best.get(key, 0.0), float(m.group(3)))
    load1 = os.getloadavg()
    print()
    print("%s, %d rounds, best of each; load average %.1f before, %.1f after" %
          (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), args.rounds, load0[0], load1[0]))
    print("| stage | Maul 1 thread | PyTorch 1 thread | Maul / PyTorch (1) | Maul 2 threads | PyTorch 2 threads | "
          "Maul 2 / PyTorch 1 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for s in STAGES:
        m1, t1 = best.get(("maul", 1, s), 0.0), best.get(("torch", 1, s), 0.0)
        m2, t2 = best.get(("maul", 2, s), 0.0), best.get(("torch", 2, s), 0.0)
        print("| %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |" %
              (s, m1, t1, m1 / t1 if t1 else 0.0, m2, t2, m2 / t1 if t1 else 0.0))
    if args.before:
        print()
        print("| stage | before, 1 thread | Maul 1 thread | speedup | before, 2 threads | Maul 2 threads | speedup |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for s in STAGES:
            b1, m1 = best.get(("before", 1, s), 0.0), best.get(("maul", 1, s), 0.0)
            b2, m2 = best.get(("before", 2, s), 0.0), best.get(("maul", 2, s), 0.0)
            print("| %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |" %
                  (s, b1, m1, m1 / b1 if b1 else 0.0, b2, m2, m2 / b2 if b2 else 0.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
