#!/usr/bin/env python3
"""Seed 004 Tables 1-2 for the truck from bench/truck_slalom's JSON output (medians).

Table 1: the 5 s slalom's whole runs (the integration alone, without the sampling), analytic or
finite-difference tangent, on 1 and 2 threads.
Table 2: one Newton iteration step by step at the first steer peak.
Prints Markdown (docs/benchmarks.md, "The truck's slalom").

Usage: scripts/truck_steps_table.py TRUCK_SLALOM.json
"""
import json
import sys

STEPS = [  # (benchmark, seed 004 Table 2 step, what)
    ("MassMatrixAndForces", "2", "kinematics, force elements with the 10 tyres, M and Q (semi-recursive)"),
    ("Constraints", "2", "loop constraints Phi and Jacobian Phi_z"),
    ("AnalyticStiffnessAndDamping", "3", "K and C analytic (seed 001 eq. (28)-(34) with the tyres' terms)"),
    ("FiniteDifferenceStiffnessAndDamping/1/real_time", "3", "K and C by finite differences, 1 thread"),
    ("FiniteDifferenceStiffnessAndDamping/2/real_time", "3", "K and C by finite differences, 2 threads"),
    ("TangentFactorisation/0", "4-6", "tangent assembled, factorised and solved: sparse Cholesky"),
    ("TangentFactorisation/1", "4-6", "the same with a dense LU (finite-difference K and C)"),
]


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        runs = json.load(f)["benchmarks"]
    median = {b["run_name"]: b for b in runs if b.get("aggregate_name") == "median"}
    if not median:
        print(f"truck_steps_table.py: {sys.argv[1]} holds no medians (run with --benchmark_repetitions)", file=sys.stderr)
        return 1
    print("| tangent | threads | wall (ms) | real-time factor | steps | evaluations | speed-up over 1 thread |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for fd, tangent in ((0, "analytic"), (1, "finite differences")):
        one = median.get(f"Slalom/{fd}/1/iterations:1/manual_time")
        for threads in (1, 2):
            b = median.get(f"Slalom/{fd}/{threads}/iterations:1/manual_time")
            if not b:
                continue
            speedup = f"{one['real_time'] / b['real_time']:.2f}x" if one else "-"
            print(f"| {tangent} | {threads} | {b['real_time']:.1f} | {5000.0 / b['real_time']:.1f} | "
                  f"{b['steps']:.0f} | {b['evaluations']:.0f} | {speedup} |")
    print()
    print("| step (seed 004 Table 2) | what | wall (us) |")
    print("| --- | --- | --- |")
    for name, step, what in STEPS:
        b = median.get(name)
        if b:
            print(f"| {step} | {what} | {b['real_time']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
