#!/usr/bin/python3
"""Tables, scaling law and many-core projection of the divide-and-conquer benchmark.

Reads the JSON of
    build-bench/bin/bench_divide_and_conquer --benchmark_repetitions=5 \
        --benchmark_report_aggregates_only=true --benchmark_format=json > dc.json
and prints Markdown for docs/benchmarks.md:
  1. per chain and N: tree depth, ABA, DCA, HDCA on 1 and 2 threads (medians), HDCA / ABA and
     the 2-thread speed-up;
  2. the serial scaling law t(N) = a + b N, least squares over N >= 16, with the slope of
     log t against log N between consecutive sizes;
  3. a projection of one HDCA evaluation on P cores from the measured costs (see `project`);
the kinematics column is the serial position recursion (updatePositions) for comparison: HDCA
sweeps the poses over the tree instead (dynamics/tree_kinematics.hpp).
Usage: scripts/dc-scaling.py dc.json
"""
import json
import math
import sys


def medians(path):
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name = b["run_name"]  # e.g. HdcaHamilton/spatial_1thread/64
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
        out[name] = (b["real_time"] * scale, b.get("depth"))
    return out


def fit(points):
    """Least-squares a, b of t = a + b N."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return (sy - b * sx) / n, b


def project(t1, t2, N, P):
    """One HDCA evaluation on P cores, from the serial time t1(N) and the 2-thread time t2(N)
    (microseconds). The poses, the handle equations and the force sums are all swept over the
    assembly tree, so the work divides over P cores except one node per tier of the crown
    (2 log2 P tiers up and down, each costing the mean time of a node), plus the synchronisation
    measured on 2 threads (the 2-thread time beyond a perfect split), taken to grow with the
    number of tiers synchronised, (log2 P + 1) / 2."""
    node = t1 / N
    sync2 = max(0.0, t2 - t1 / 2)
    tiers = math.log2(P)
    return t1 / P + 2 * tiers * node + sync2 * (tiers + 1) / 2


def main():
    m = medians(sys.argv[1])
    sizes = sorted({int(k.split("/")[-1]) for k in m if k.startswith("HdcaHamilton/")})
    for chain in ("chain", "spatial"):
        print(f"\n{chain} chains (microseconds, medians):\n")
        print("| N | depth | kinematics | ABA | DCA | HDCA 1 thread | HDCA 2 threads | HDCA / ABA | 2-thread speed-up |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        serial = []
        for N in sizes:
            aba = m[f"Aba/{chain}/{N}"][0]
            dca = m[f"Dca/{chain}_1thread/{N}"][0]
            h1, depth = m[f"HdcaHamilton/{chain}_1thread/{N}"]
            h2 = m[f"HdcaHamilton/{chain}_2threads/{N}"][0]
            kin = m[f"Kinematics/{chain}/{N}"][0]
            serial.append((N, h1))
            print(f"| {N} | {depth:.0f} | {kin:.3g} | {aba:.3g} | {dca:.3g} | {h1:.3g} | {h2:.3g} | {h1 / aba:.2f} | {h1 / h2:.2f} |")
        a, b = fit([(N, t) for N, t in serial if N >= 16])
        slopes = [math.log(t2 / t1) / math.log(n2 / n1) for (n1, t1), (n2, t2) in zip(serial, serial[1:])]
        print(f"\nSerial HDCA: t(N) = {a:.3g} + {b:.4g} N us (least squares, N >= 16); "
              "log-log slopes between sizes: " + ", ".join(f"{s:.2f}" for s in slopes) + ".")
        print(f"\nProjected HDCA evaluation on P cores ({chain}; model in scripts/dc-scaling.py):\n")
        print("| N | 1 core (measured) | 2 cores (measured) | 2 cores (model) | 16 cores | 64 cores | 1024 cores |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for N in (s for s in sizes if s >= 256):
            t1 = m[f"HdcaHamilton/{chain}_1thread/{N}"][0]
            t2 = m[f"HdcaHamilton/{chain}_2threads/{N}"][0]
            cells = [f"{project(t1, t2, N, P):.3g}" for P in (2, 16, 64, 1024)]
            print(f"| {N} | {t1:.3g} | {t2:.3g} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
