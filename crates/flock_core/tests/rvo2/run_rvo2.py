"""Runs a crowd scenario through RVO2 (its own C++ library, through the `pyrvo` bindings) and
prints every agent's velocity after every step, for `tests/rvo2.rs`.

Reads one JSON object on standard input: `time_step`, `steps`, `agent` (RVO2's agent defaults:
`neighbour_distance`, `max_neighbours`, `time_horizon`, `time_horizon_obst`, `radius`,
`max_speed`), `agents` (each `[x, y, goal_x, goal_y]`) and `obstacles` (each a list of
`[x, y]` vertices, counter-clockwise). Each step, as RVO2's examples do, every agent prefers the
vector to its goal, normalised when longer than one; computed in single precision, as the
library and the Rust side compute it. Prints one line per step: every agent's position and
velocity after it, `x y vx vy`, in order, separated by spaces (`repr` of the library's floats,
exact).
With `"dump_obstacles": true` it prints instead one line of RVO2's obstacle vertices after
`processObstacles` (those its k-d tree added where it split edges at the end), each
`x y next`, and stops. Exits with status 3 when `pyrvo` is not installed.
"""

import json
import sys

try:
    import numpy as np
    import pyrvo
except ImportError as missing:
    print(f"pyrvo not available: {missing}", file=sys.stderr)
    sys.exit(3)

f32 = np.float32


def preferred(position, goal):
    x = f32(goal[0]) - f32(position[0])
    y = f32(goal[1]) - f32(position[1])
    length_squared = x * x + y * y
    if length_squared > f32(1.0):
        length = np.sqrt(length_squared)
        x, y = x / length, y / length
    return (float(x), float(y))


def main():
    scenario = json.load(sys.stdin)
    agent = scenario["agent"]
    simulator = pyrvo.RVOSimulator(
        scenario["time_step"],
        agent["neighbour_distance"],
        agent["max_neighbours"],
        agent["time_horizon"],
        agent["time_horizon_obst"],
        agent["radius"],
        agent["max_speed"],
    )
    goals = []
    for x, y, goal_x, goal_y in scenario["agents"]:
        simulator.add_agent((x, y))
        goals.append((goal_x, goal_y))
    for vertices in scenario.get("obstacles", []):
        simulator.add_obstacle([tuple(vertex) for vertex in vertices])
    if scenario.get("obstacles"):
        simulator.process_obstacles()
    out = sys.stdout
    if scenario.get("dump_obstacles"):
        vertices = []
        for index in range(simulator.get_num_obstacle_vertices()):
            vertex = simulator.get_obstacle_vertex(index)
            following = simulator.get_next_obstacle_vertex(index)
            vertices.append(f"{vertex.x!r} {vertex.y!r} {following}")
        out.write(" ".join(vertices) + "\n")
        return
    for _ in range(scenario["steps"]):
        for index, goal in enumerate(goals):
            position = simulator.get_agent_position(index)
            simulator.set_agent_pref_velocity(index, preferred((position.x, position.y), goal))
        simulator.do_step()
        states = []
        for index in range(len(goals)):
            position = simulator.get_agent_position(index)
            velocity = simulator.get_agent_velocity(index)
            states.append(f"{position.x!r} {position.y!r} {velocity.x!r} {velocity.y!r}")
        out.write(" ".join(states) + "\n")


if __name__ == "__main__":
    main()
