#!/usr/bin/env python3
"""ORCA against RVO2, side by side in one run: the steps per second of RVO2's `doStep` (its own
C++ library through `pip install pyrvo`, one thread: the wheel is built without OpenMP) and of
our kernel's ORCA crowd step (`flock crowd-bench --kernel-only`, all cores), at the same density
and parameters: agents at random in a square holding 32 agents within the neighbour distance of
50 on average (`flock bench`'s world), 10 neighbours used, radius 5, horizons 2 s and 1 s,
maximum speed 120 (Processing's 2 per frame), each preferring its maximum speed in a random
direction, time step 1/60 s.

Usage: tools/orca_vs_rvo2.py [--flock PATH] [--samples N] [COUNT ...]   (default 1000 10000 100000)
PATH is the `flock` binary (default: $CARGO_TARGET_DIR or ~/.cache/bevy_flock-target, release).
"""

import argparse
import math
import os
import re
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


def ours_steps_per_second(flock, counts, samples):
    command = [
        flock, "crowd-bench", "--kernel-only", "--dims", "2,3",
        "--counts", ",".join(str(count) for count in counts),
        "--warmup", "1", "--samples", str(samples),
    ]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    rates = {}
    for line in output.splitlines():
        match = re.match(r"\| (\d) \| (\d+) \| ([\d.]+) \|", line)
        if match:
            rates[(int(match[1]), int(match[2]))] = float(match[3])
    return output.splitlines()[0], rates


def main():
    parser = argparse.ArgumentParser()
    target = os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/bevy_flock-target"))
    parser.add_argument("--flock", default=os.path.join(target, "release", "flock"))
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("counts", type=int, nargs="*", default=[1000, 10000, 100000])
    args = parser.parse_args()
    with open("/proc/cpuinfo") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo
                      if line.startswith("model name")), "unknown")
    print(f"{model}, {os.cpu_count()} cores")
    header, ours = ours_steps_per_second(args.flock, args.counts, args.samples)
    print(f"ours: {header}")
    print("| agents | RVO2 doStep/s (1 thread) | ours 2D steps/s | ratio | ours 3D steps/s |")
    print("|---|---|---|---|---|")
    for count in args.counts:
        theirs = rvo2_steps_per_second(count, args.samples)
        ours_2d = ours.get((2, count), float("nan"))
        ours_3d = ours.get((3, count), float("nan"))
        print(f"| {count} | {theirs:.1f} | {ours_2d:.1f} | {ours_2d / theirs:.2f} | {ours_3d:.1f} |",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
