#!/usr/bin/env python3
"""Cost model of the distributed formulation across MPI ranks (docs/distributed.md, "Projection").

Inputs, measured on this machine:
  PHASES    the output of build/bin/distributed_phases (one process): ms per evaluation by phase
            for the 1024-body spatial chain in N = 1, 2, 4, ... subsystems, and ABA's evaluation;
  PINGPONG  the output of tests/mpi/mpirun.sh 2 build/bin/mpi_pingpong: per message size the
            median and the minimum of the half round trips; the model fits latency + bytes /
            bandwidth to the minima (read_pingpong says why).

With one subsystem per rank (N = P), the time of one evaluation on the critical path is
  T(P) = serial + leaf(P) + L (combine + 2 latency + (up + down bytes) / bandwidth) + gather(P)
  serial   first pass + force elements (every rank runs them over the whole model: the state is
           the same on every rank) + the link rows of the rank's own nodes (levels + 2 of the N
           links on the root's rank), measured at N = P in one process (each phase less one
           clock read, which the empty gather phase of one process measures);
  leaf(P)  condensation and acceleration pass of one subsystem of n / P bodies: (leaves + expand)
           at N = P divided by N;
  L        = ceil(log2 P) hierarchy levels above the leaves; the root's rank combines once per
           level and waits for one interface (up) and sends one force vector (down) per level;
  combine  (up + down) at N = P in one process divided by its N - 1 combining nodes;
  bytes    a chain interface of 2 handles: 8 (36 * 4 + 12) = 1248 up, 8 * 12 = 96 down;
  gather   the all-gather of the nv joint accelerations: L latencies + 8 nv (P - 1) / P / bandwidth.
The projection ignores contention and the integrator's own work on the state (it is the same on
every rank and small beside an evaluation). A second column uses an assumed cluster network
(latency 2e-6 s, 10 GB/s) instead of this machine's shared memory.
Usage: bench/distributed_model.py PHASES PINGPONG [RANKS...]
"""
import math
import sys


def read_phases(path):
    aba, rows = None, {}
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        f = line.split()
        if f[0] == 'aba':
            aba = float(f[1])
        else:
            names = ['total', 'firstPass', 'leaves', 'linkRows', 'up', 'down', 'expand', 'gather']
            rows[int(f[0])] = dict(zip(names, map(float, f[1:])))
    return aba, rows


def read_pingpong(path):
    """latency (s) and bandwidth (B/s) from the per-size minima of mpi_pingpong. On a loaded machine
    a rank that waits yields its core and may wait a time slice (milliseconds) for it back; the
    minimum over the trips is the trip that found both ranks running. Sizes whose minimum is still
    above 100 us were never so lucky and are left out of the least-squares fit."""
    sizes, times = [], []
    for line in open(path):
        if 'bytes: median' in line:
            f = line.replace(',', ' ').split()
            if float(f[6]) < 1e-4:
                sizes.append(float(f[0]))
                times.append(float(f[6]))
    if len(sizes) < 2:
        raise SystemExit(path + ': fewer than two message sizes with a minimum under 100 us')
    n = len(sizes)
    sx, sy = sum(sizes), sum(times)
    sxx, sxy = sum(x * x for x in sizes), sum(x * t for x, t in zip(sizes, times))
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    latency = (sy - b * sx) / n
    # A slope at or below zero (the sizes too small to resolve it) gives no bandwidth: take 1 GB/s,
    # far below a memory copy, which only makes the projection pessimistic.
    return max(latency, min(times)), (1.0 / b if b > 1e-12 else 1e9)


def project(rows, p, nv, latency, bandwidth):
    """ms per evaluation on p ranks, one subsystem per rank, and the parts."""
    # Each phase carries one clock read; the empty gather phase of the one-process rows measures it.
    mark = rows[1]['gather']
    r = {k: (v - mark if k not in ('total', 'gather') else v) for k, v in rows[p].items()}
    levels = math.ceil(math.log2(p)) if p > 1 else 0
    # The link rows: one process evaluates all N; a rank only those of its own nodes, on the root's
    # rank one per level plus its leaf's and the ground's.
    serial = r['firstPass'] + r['linkRows'] * min(1.0, (levels + 2) / p)
    leaf = (r['leaves'] + r['expand']) / p
    combine = (r['up'] + r['down']) / (p - 1) if p > 1 else 0.0
    message = (2 * latency + (1248 + 96) / bandwidth) * 1e3
    gather = (levels * latency + 8 * nv * (p - 1) / p / bandwidth) * 1e3 if p > 1 else 0.0
    return serial + leaf + levels * (combine + message) + gather, serial, leaf, levels * combine, levels * message, gather


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    aba, rows = read_phases(sys.argv[1])
    latency, bandwidth = read_pingpong(sys.argv[2])
    ranks = [int(x) for x in sys.argv[3:]] or [1, 2, 16, 64, 256, 1024]
    nv = max(rows)  # the chain has one joint (one coordinate) per body, and N goes up to n
    one = rows[1]['total']
    print(f'# 1024-body spatial chain: ABA {aba:.4f} ms, distributed on 1 rank (1 subsystem) {one:.4f} ms per evaluation')
    print(f'# ping-pong here: latency {latency:.2e} s, bandwidth {bandwidth:.2e} B/s; cluster assumed: 2e-6 s, 1e10 B/s')
    print('# ranks  T_here_ms  speedup  serial  leaf  combine  messages  gather | T_cluster_ms  speedup')
    for p in ranks:
        if p not in rows:
            print(f'{p:6d}  (not measured: distributed_phases goes up to {max(rows)} subsystems)')
            continue
        here = project(rows, p, nv, latency, bandwidth)
        cluster = project(rows, p, nv, 2e-6, 1e10)
        print(f'{p:6d}  {here[0]:9.4f}  {one / here[0]:7.2f}  ' + '  '.join(f'{x:.4f}' for x in here[1:]) +
              f' | {cluster[0]:9.4f}  {one / cluster[0]:7.2f}')


if __name__ == '__main__':
    main()
