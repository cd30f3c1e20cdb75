#!/usr/bin/env python3
"""ORCA against RVO2, side by side in one run: the steps per second of RVO2's `doStep` (its own
C++ library through `pip install pyrvo`, one thread: the wheel is built without OpenMP) and of
our kernel's ORCA crowd step (the `orca_bench` example of `flock_core`, `orca_bench_3d` of `flock_core3d`, on
two threads), at the same density
and parameters: agents at random in a square holding 32 agents within the neighbour distance of
50 on average (`flock bench`'s world), 10 neighbours used, radius 5, horizons 2 s and 1 s,
maximum speed 120 (Processing's 2 per frame), each preferring its maximum speed in a random
direction, time step 1/60 s.

With `--boxes N`, both sides get the N square obstacles of `orca_bench --boxes N`: on a square
grid over the square, each a fifth of its grid cell wide (computed here in 32-bit floats, as
the example does, so the corners are the same numbers), given to RVO2 as counter-clockwise
polygons; agents start outside every box's bounding circle widened by their radius, as there.
(Our 3D column has the example's cubes on the plane z = 0; RVO2 is planar only.)

Usage: tools/orca_vs_rvo2.py [--threads N] [--samples N] [--boxes N] [COUNT ...]
(default 1000 10000 100000). Run from the repository; builds the examples with
`cargo run --release`.
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


def square_side(count):
    """The side of `orca_bench`'s square for `count` agents, in 32-bit floats as it computes it
    (`(count / 32 * PI * REACH * REACH).sqrt()`)."""
    f32 = np.float32
    per_neighbour = f32(count) / f32(NEIGHBOURS)
    return np.sqrt(per_neighbour * f32(math.pi) * f32(REACH) * f32(REACH))


def boxes(count, side):
    """`orca_bench`'s `boxes(count, side)`: (centre x, centre y, half size) of each square, in
    32-bit floats step by step as the example computes them."""
    f32 = np.float32
    per_row = int(np.ceil(np.sqrt(f32(count))))
    cell = side / f32(max(per_row, 1))
    half = cell / f32(10.0)
    return [
        (
            (f32(index % per_row) + f32(0.5)) * cell - side / f32(2.0),
            (f32(index // per_row) + f32(0.5)) * cell - side / f32(2.0),
            half,
        )
        for index in range(count)
    ]


def outside_boxes(positions, squares):
    """Which positions lie outside every square's bounding circle widened by the agents' radius:
    where `orca_bench` lets an agent start."""
    keep = np.ones(len(positions), dtype=bool)
    for x, y, half in squares:
        reach = float(np.hypot(half, half)) + REACH / 10.0
        keep &= np.hypot(positions[:, 0] - float(x), positions[:, 1] - float(y)) >= reach
    return keep


def rvo2_steps_per_second(count, samples, box_count=0):
    side = square_side(count)
    squares = boxes(box_count, side)
    half_side = float(side) / 2
    rng = np.random.default_rng(7)
    sim = pyrvo.RVOSimulator(TIME_STEP, REACH, 10, 2.0, 1.0, REACH / 10.0, MAX_SPEED)
    for x, y, half in squares:
        x, y, half = float(x), float(y), float(half)
        # Counter-clockwise, as RVO2 wants a solid obstacle.
        sim.add_obstacle([(x - half, y - half), (x + half, y - half),
                          (x + half, y + half), (x - half, y + half)])
    sim.process_obstacles()
    positions = rng.uniform(-half_side, half_side, size=(count, 2))
    # Those inside a box drawn again until every agent starts outside.
    while True:
        inside = np.flatnonzero(~outside_boxes(positions, squares))
        if len(inside) == 0:
            break
        positions[inside] = rng.uniform(-half_side, half_side, size=(len(inside), 2))
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


def ours_steps_per_second(package, counts, threads, samples, box_count=0):
    example = "orca_bench_3d" if package == "flock_core3d" else "orca_bench"
    command = [
        "cargo", "run", "--quiet", "--release", "-p", package, "--example", example, "--",
        "--threads", str(threads), "--samples", str(samples), "--boxes", str(box_count),
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
    parser.add_argument("--boxes", type=int, default=0,
                        help="square obstacles on a grid, as orca_bench --boxes places them")
    parser.add_argument("counts", type=int, nargs="*", default=[1000, 10000, 100000])
    args = parser.parse_args()
    with open("/proc/cpuinfo") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo
                      if line.startswith("model name")), "unknown")
    print(f"{model}, {os.cpu_count()} cores; ours on {args.threads} threads, RVO2 on one; "
          f"medians of {args.samples} steps; {args.boxes} boxes")
    ours_2d = ours_steps_per_second("flock_core", args.counts, args.threads, args.samples,
                                    args.boxes)
    ours_3d = ours_steps_per_second("flock_core3d", args.counts, args.threads, args.samples,
                                    args.boxes)
    print("| agents | RVO2 doStep/s | ours 2D steps/s | ratio | ours 3D steps/s |")
    print("|---|---|---|---|---|")
    for count in args.counts:
        theirs = rvo2_steps_per_second(count, args.samples, args.boxes)
        print(f"| {count} | {theirs:.1f} | {ours_2d[count]:.1f} | {ours_2d[count] / theirs:.2f} "
              f"| {ours_3d[count]:.1f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
