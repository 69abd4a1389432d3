#!/usr/bin/env python3
"""Alternate Google Benchmark binaries (A/B comparisons on a noisy machine).

usage: scripts/ab-bench.py BINARY [BINARY ...] FILTER [ROUNDS]

Runs every binary in turn, ROUNDS times (default 4), each time with --benchmark_filter=FILTER and
11 repetitions, so that a change in the machine's load falls on every binary alike. Prints, per
binary and benchmark, the median, 10th percentile and minimum of the CPU times of all the
repetitions (µs). Compare ratios taken within one run (docs/benchmarks.md).
"""
import json
import statistics
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    rounds = 4
    if argv[-1].isdigit():
        rounds = int(argv[-1])
        argv = argv[:-1]
    binaries, pattern = argv[1:-1], argv[-1]
    times = {}
    for _ in range(rounds):
        for binary in binaries:
            out = subprocess.run([binary, "--benchmark_filter=" + pattern, "--benchmark_repetitions=11",
                                  "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
            for bench in json.loads(out)["benchmarks"]:
                if bench.get("run_type") == "iteration":
                    times.setdefault((binary, bench["run_name"]), []).append(bench["cpu_time"] / 1e3)
    for (binary, name), values in sorted(times.items()):
        values.sort()
        print(f"{binary:40s} {name:35s} median {statistics.median(values):9.1f}  "
              f"q10 {values[len(values) // 10]:9.1f}  min {values[0]:9.1f}")


if __name__ == "__main__":
    main(sys.argv)
