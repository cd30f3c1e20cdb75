#!/usr/bin/env python3
"""ORCA against RVO2, side by side in one run: the steps per second of RVO2's `doStep` (its own
C++ library through `pip install pyrvo`, one thread: the wheel is built without OpenMP) and of
our kernel's ORCA crowd step (the `orca_bench` example of `flock_core`, `orca_bench_3d` of `flock_core3d`, on
two threads), at the same density
and parameters: agents at random in a square holding 32 agents within the neighbour distance of
50 on average (`flock bench`'s world), 10 neighbours used, radius 5, horizons 2 s and 1 s,
maximum speed 120 (Processing's 2 per frame), each preferring its maximum speed in a random
direction, time step 1/60 s.

Usage: tools/orca_vs_rvo2.py [--threads N] [--samples N] [COUNT ...]   (default 1000 10000 100000)
Run from the repository; builds the examples with `cargo run --release`.
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import pyrvo

REACH = 50.0
NEIGHBOURS = 32
MAX_SPEED = 120.0
TIME_STEP = 1.0 / 60.0


def rvo2_steps_per_second(count, samples):
    side = math.sqrt(count / NEIGHBOURS * math.pi * REACH * REACH)
    rng = np.random.default_rng(7)
    sim = pyrvo.RVOSimulator(TIME_STEP, REACH, 10, 2.0, 1.0, REACH / 10.0, MAX_SPEED)
    positions = rng.uniform(-side / 2, side / 2, size=(count, 2))
    angles = rng.uniform(0.0, 2.0 * math.pi, size=count)
    for (x, y), angle in zip(positions, angles):
        agent = sim.add_agent((float(x), float(y)))
        sim.set_agent_pref_velocity(
            agent, (MAX_SPEED * math.cos(angle), MAX_SPEED * math.sin(angle))
        )
    sim.do_step()
    times = []
    for _ in range(samples):
        begin = time.perf_counter()
        sim.do_step()
        times.append(time.perf_counter() - begin)
    return 1.0 / statistics.median(times)


def ours_steps_per_second(package, counts, threads, samples):
    example = "orca_bench_3d" if package == "flock_core3d" else "orca_bench"
    command = [
        "cargo", "run", "--quiet", "--release", "-p", package, "--example", example, "--",
        "--threads", str(threads), "--samples", str(samples),
    ] + [str(count) for count in counts]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    rates = {}
    for line in output.splitlines():
        count, rate = line.split()
        rates[int(count)] = float(rate)
    return rates


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("counts", type=int, nargs="*", default=[1000, 10000, 100000])
    args = parser.parse_args()
    with open("/proc/cpuinfo") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo
                      if line.startswith("model name")), "unknown")
    print(f"{model}, {os.cpu_count()} cores; ours on {args.threads} threads, RVO2 on one; "
          f"medians of {args.samples} steps")
    ours_2d = ours_steps_per_second("flock_core", args.counts, args.threads, args.samples)
    ours_3d = ours_steps_per_second("flock_core3d", args.counts, args.threads, args.samples)
    print("| agents | RVO2 doStep/s | ours 2D steps/s | ratio | ours 3D steps/s |")
    print("|---|---|---|---|---|")
    for count in args.counts:
        theirs = rvo2_steps_per_second(count, args.samples)
        print(f"| {count} | {theirs:.1f} | {ours_2d[count]:.1f} | {ours_2d[count] / theirs:.2f} "
              f"| {ours_3d[count]:.1f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
