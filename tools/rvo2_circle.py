#!/usr/bin/env python3
"""RVO2's Circle example through RVO2's own library (`pip install pyrvo`): COUNT agents evenly
round a circle of RADIUS, each walking to its antipode with RVO2's agent defaults
(neighbour distance 15, 10 neighbours, time horizons 10, radius 1.5, maximum speed 2, time step
0.25) and RVO2's preferred velocity (the vector to the goal, normalised when longer than one).
Prints, per circle, when every agent was within its radius of its goal at once (RVO2's test)
and how close two centres came at any step: the reference for `flock crowd-circle` and for
`crates/flock_core/tests/crowd_circle.rs`.

Usage: tools/rvo2_circle.py COUNT:RADIUS [COUNT:RADIUS ...]   (e.g. 250:200)
"""

import math
import sys

import numpy as np
import pyrvo
from scipy.spatial import cKDTree

MAX_TIME = 4000.0


def run(count, radius):
    sim = pyrvo.RVOSimulator(0.25, 15.0, 10, 10.0, 10.0, 1.5, 2.0)
    goals = []
    for i in range(count):
        angle = i * 2.0 * math.pi / count
        x, y = radius * math.cos(angle), radius * math.sin(angle)
        sim.add_agent((x, y))
        goals.append((-x, -y))
    goals = np.array(goals, dtype=np.float32)
    closest = math.inf
    steps = 0
    while steps * 0.25 < MAX_TIME:
        positions = np.array(
            [sim.get_agent_position(i).to_tuple() for i in range(count)], dtype=np.float32
        )
        to_goal = goals - positions
        length = np.sqrt((to_goal * to_goal).sum(axis=1))
        if (length <= 1.5).all():
            return steps * 0.25, closest
        scale = np.where(length > 1.0, 1.0 / np.maximum(length, 1e-30), 1.0)
        for i, (x, y) in enumerate(to_goal * scale[:, None]):
            sim.set_agent_pref_velocity(i, (float(x), float(y)))
        sim.do_step()
        steps += 1
        positions = np.array(
            [sim.get_agent_position(i).to_tuple() for i in range(count)], dtype=np.float64
        )
        distances, _ = cKDTree(positions).query(positions, k=2)
        closest = min(closest, float(distances[:, 1].min()))
    return None, closest


def main():
    print("| agents | circle radius | RVO2 arrival (s) | RVO2 closest centres |")
    print("|---|---|---|---|")
    for spec in sys.argv[1:]:
        count, radius = spec.split(":")
        arrival, closest = run(int(count), float(radius))
        arrival = "none" if arrival is None else f"{arrival:.2f}"
        print(f"| {count} | {radius} | {arrival} | {closest:.3f} |", flush=True)


if __name__ == "__main__":
    main()
