//! ORCA's static obstacles ([`OrcaObstacles`], RVO2's linked polygons and obstacle tree in 2D):
//! agents kept out of polygons over many steps, with and without the contact pass, and every
//! class of bad input refused with a clear error, never a panic, a NaN or a lost agent. (RVO2
//! itself: `rvo2.rs`.)

use flock_core::Vector;
use flock_core::parallel::Serial;
use flock_core::steering::{
    ContactPass, ContactScratch, CrowdAgent, MAX_OBSTACLE_COORDINATE, ObstacleError, ObstacleFault,
    OrcaAgent, OrcaCrowd, OrcaObstacles, OrcaParams, OrcaScratch, Polygon, Shape, orca_velocity,
};

const RADIUS: f32 = 1.0;
const MAX_SPEED: f32 = 2.0;
const TIME_STEP: f32 = 0.1;

fn params() -> OrcaParams {
    OrcaParams::rvo2(10.0, 10, 3.0, 2.0, RADIUS)
}

/// A field of boxes (aligned, rotated), an L-shaped polygon and a circle.
fn field() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for row in 0..3 {
        for column in 0..3 {
            let centre = Vector::new(-12.0 + 12.0 * column as f32, -12.0 + 12.0 * row as f32);
            shapes.push(if (row + column) % 2 == 0 {
                Shape::Rect {
                    centre,
                    half_size: Vector::new(3.0, 2.0),
                }
            } else {
                Shape::RotatedRect {
                    centre,
                    half_size: Vector::new(3.0, 1.0),
                    rotation: flock_core::steering::Rotation::from_angle(0.6),
                }
            });
        }
    }
    let l = Polygon::new([
        Vector::new(-6.0, 14.0),
        Vector::new(6.0, 14.0),
        Vector::new(6.0, 16.0),
        Vector::new(-4.0, 16.0),
        Vector::new(-4.0, 24.0),
        Vector::new(-6.0, 24.0),
    ])
    .unwrap();
    shapes.push(Shape::Polygon(l));
    shapes.push(Shape::Circle {
        centre: Vector::new(-6.0, -20.0),
        radius: 2.5,
    });
    shapes
}

/// How far `point` is outside `shape` (negative inside).
fn clearance(shape: &Shape, point: Vector) -> f32 {
    let nearest = shape.nearest(point);
    let distance = nearest.point.distance(point);
    if nearest.inside { -distance } else { distance }
}

/// Forty agents on a ring of radius 30 round the field, each going to its antipode through it.
fn ring() -> (Vec<CrowdAgent>, Vec<Vector>) {
    let mut agents = Vec::new();
    let mut goals = Vec::new();
    for index in 0..40 {
        let angle = index as f32 / 40.0 * std::f32::consts::TAU + 0.05;
        let start = Vector::new(angle.cos(), angle.sin()) * 30.0;
        agents.push(CrowdAgent::standing(
            start,
            Vector::ZERO,
            MAX_SPEED,
            params(),
        ));
        goals.push(-start);
    }
    (agents, goals)
}

/// Runs the ring through the field for `steps`, returning the least clearance from any agent's
/// body to any obstacle (negative: an overlap), and how many times an agent came within a
/// quarter radius of one (ORCA without a roadmap leaves some stuck behind the boxes, as RVO2
/// does: arriving is not the point here, pressing on the obstacles is).
fn walk_the_ring(contact: Option<&ContactPass>, steps: usize) -> (f32, usize) {
    let shapes = field();
    let obstacles = OrcaObstacles::from_shapes(&shapes);
    assert!(obstacles.problems().is_empty());
    let (mut agents, goals) = ring();
    let mut crowd = OrcaCrowd::default();
    let mut least = f32::INFINITY;
    let mut close = 0;
    for _ in 0..steps {
        for (agent, goal) in agents.iter_mut().zip(&goals) {
            agent.preferred_velocity = (*goal - agent.position).clamp_length_max(MAX_SPEED);
        }
        crowd.step(&mut agents, &obstacles, TIME_STEP, contact, &Serial);
        for agent in &agents {
            assert!(agent.position.is_finite() && agent.velocity.is_finite());
            for shape in &shapes {
                let gap = clearance(shape, agent.position);
                assert!(
                    gap > 0.0,
                    "a centre entered {shape:?} at {}",
                    agent.position
                );
                least = least.min(gap - RADIUS);
                close += usize::from(gap - RADIUS < 0.25 * RADIUS);
            }
        }
    }
    eprintln!("closest {least}, {close} times within a quarter radius");
    (least, close)
}

#[test]
fn agents_never_enter_polygons_without_the_contact_pass() {
    let (least, close) = walk_the_ring(None, 700);
    // ORCA alone keeps every body off the walls but for rounding: the fallback keeps the
    // obstacles' lines hard, and they hold for the whole obstacle horizon.
    assert!(
        least > -1e-3,
        "an agent overlapped an obstacle by {}",
        -least
    );
    assert!(
        close > 1000,
        "the agents came near the obstacles {close} times only"
    );
}

#[test]
fn agents_never_enter_polygons_with_the_contact_pass() {
    let (least, close) = walk_the_ring(Some(&ContactPass::default()), 700);
    assert!(
        least > -1e-3,
        "an agent overlapped an obstacle by {}",
        -least
    );
    assert!(
        close > 1000,
        "the agents came near the obstacles {close} times only"
    );
}

/// The fault `from_polygons` gives for one vertex list.
fn fault_of(vertices: &[Vector]) -> Option<ObstacleFault> {
    OrcaObstacles::from_polygons(&[vertices])
        .err()
        .map(|error| {
            assert_eq!(error.obstacle, 0);
            assert!(!error.to_string().is_empty());
            error.fault
        })
}

#[test]
fn each_class_of_bad_vertex_list_is_refused_with_its_reason() {
    let v = Vector::new;
    let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
    assert_eq!(fault_of(&square), None);
    assert_eq!(fault_of(&[v(0.0, 0.0), v(1.0, 0.0)]), None, "an open wall");
    assert_eq!(fault_of(&[]), Some(ObstacleFault::TooFewVertices));
    assert_eq!(
        fault_of(&[v(1.0, 2.0)]),
        Some(ObstacleFault::TooFewVertices)
    );
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(
            fault_of(&[v(0.0, 0.0), v(bad, 0.0), v(1.0, 1.0)]),
            Some(ObstacleFault::NotFinite)
        );
    }
    let huge = MAX_OBSTACLE_COORDINATE * 2.0;
    assert_eq!(
        fault_of(&[v(0.0, 0.0), v(huge, 0.0), v(huge, huge)]),
        Some(ObstacleFault::TooLarge)
    );
    assert_eq!(
        fault_of(&[v(0.0, 0.0), v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)]),
        Some(ObstacleFault::ZeroLengthEdge),
        "a repeated vertex"
    );
    assert_eq!(
        fault_of(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 0.0)]),
        Some(ObstacleFault::ZeroLengthEdge),
        "the first vertex repeated at the end"
    );
    assert_eq!(
        fault_of(&[v(3.0, 3.0), v(3.0, 3.0)]),
        Some(ObstacleFault::ZeroLengthEdge),
        "a wall of no length"
    );
    assert_eq!(
        fault_of(&[v(0.0, 0.0), v(1e-30, 0.0), v(1.0, 1.0)]),
        Some(ObstacleFault::ZeroLengthEdge),
        "an edge too short to have a direction"
    );
    assert_eq!(
        fault_of(&[v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Some(ObstacleFault::SelfIntersecting),
        "a bow tie"
    );
    assert_eq!(
        fault_of(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
        Some(ObstacleFault::NoArea)
    );
    let many: Vec<Vector> = (0..Polygon::MAX_VERTICES + 1)
        .map(|index| {
            let angle = index as f32 / (Polygon::MAX_VERTICES + 1) as f32 * std::f32::consts::TAU;
            v(angle.cos(), angle.sin()) * 100.0
        })
        .collect();
    assert_eq!(fault_of(&many), Some(ObstacleFault::TooManyVertices));
    // The error names the list refused.
    let error = OrcaObstacles::from_polygons(&[&square[..], &[v(5.0, 5.0)][..]]).unwrap_err();
    assert_eq!(
        error,
        ObstacleError {
            obstacle: 1,
            fault: ObstacleFault::TooFewVertices
        }
    );
}

#[test]
fn a_clockwise_polygon_is_turned_round_and_still_keeps_agents_out() {
    let v = Vector::new;
    let clockwise = [v(-2.0, -2.0), v(-2.0, 2.0), v(2.0, 2.0), v(2.0, -2.0)];
    let obstacles = OrcaObstacles::from_polygons(&[clockwise]).unwrap();
    // Counter-clockwise: the inside is to the left of every edge.
    for (start, end) in obstacles.edges() {
        assert!((end - start).perp_dot(Vector::ZERO - start) > 0.0);
    }
    let mut me = agent(v(-8.0, 0.3));
    let mut scratch = OrcaScratch::default();
    for _ in 0..200 {
        me.preferred_velocity = v(MAX_SPEED, 0.0);
        me.velocity = orca_velocity(&me, [], &obstacles, &params(), TIME_STEP, &mut scratch);
        me.position += me.velocity * TIME_STEP;
        assert!(
            me.position.abs().max_element() > 2.0 + 0.95 * RADIUS,
            "at {}",
            me.position
        );
    }
}

fn agent(position: Vector) -> OrcaAgent {
    OrcaAgent {
        position,
        velocity: Vector::ZERO,
        preferred_velocity: Vector::ZERO,
        max_speed: MAX_SPEED,
        id: 0,
    }
}

#[test]
fn bad_shapes_are_left_out_with_a_reason_and_the_rest_kept() {
    let v = Vector::new;
    let shapes = [
        Shape::Circle {
            centre: v(f32::NAN, 0.0),
            radius: 1.0,
        },
        Shape::Rect {
            centre: v(0.0, 0.0),
            half_size: v(2.0, 2.0),
        },
        Shape::Rect {
            centre: v(MAX_OBSTACLE_COORDINATE * 4.0, 0.0),
            half_size: v(1.0, 1.0),
        },
        Shape::Rect {
            centre: v(10.0, 0.0),
            half_size: v(0.0, 0.0),
        },
        Shape::Circle {
            centre: v(0.0, 10.0),
            radius: -1.0,
        },
        // No height: the segment it is, avoided from both sides.
        Shape::Rect {
            centre: v(0.0, -10.0),
            half_size: v(3.0, 0.0),
        },
    ];
    let obstacles = OrcaObstacles::from_shapes(&shapes);
    let faults: Vec<(usize, ObstacleFault)> = (obstacles.problems().iter())
        .map(|problem| (problem.obstacle, problem.fault))
        .collect();
    assert_eq!(
        faults,
        [
            (0, ObstacleFault::NotFinite),
            (2, ObstacleFault::TooLarge),
            (3, ObstacleFault::ZeroLengthEdge),
            (4, ObstacleFault::NotFinite),
        ]
    );
    // The square (4 edges) and the segment (2, one each way).
    assert_eq!(obstacles.edges().count(), 6);
    // An agent heading through the flat wall from either side stops short of it.
    for side in [-1.0, 1.0] {
        let mut me = agent(v(0.2, -10.0 + 4.0 * side));
        let mut scratch = OrcaScratch::default();
        for _ in 0..100 {
            me.preferred_velocity = v(0.0, -MAX_SPEED * side);
            me.velocity = orca_velocity(&me, [], &obstacles, &params(), TIME_STEP, &mut scratch);
            me.position += me.velocity * TIME_STEP;
        }
        let gap = (me.position.y + 10.0) * side;
        assert!(
            gap > 0.95 * RADIUS && gap < 1.5 * RADIUS,
            "side {side}: {gap}"
        );
    }
}

#[test]
fn an_agent_inside_an_obstacle_or_on_a_vertex_stays_finite_and_the_contact_pass_frees_it() {
    let v = Vector::new;
    let shapes = [Shape::Rect {
        centre: v(0.0, 0.0),
        half_size: v(3.0, 3.0),
    }];
    let obstacles = OrcaObstacles::from_shapes(&shapes);
    let mut scratch = OrcaScratch::default();
    for position in [
        v(0.5, 0.2),
        v(3.0, 3.0),
        v(-3.0, 3.0),
        v(3.0, 0.0),
        v(2.9, -2.9),
        v(0.0, 0.0),
    ] {
        for preferred in [v(0.0, 0.0), v(MAX_SPEED, 0.0), v(-1.0, -1.0)] {
            for velocity in [v(0.0, 0.0), v(1.0, 0.5)] {
                let me = OrcaAgent {
                    velocity,
                    preferred_velocity: preferred,
                    ..agent(position)
                };
                let new = orca_velocity(&me, [], &obstacles, &params(), TIME_STEP, &mut scratch);
                assert!(
                    new.is_finite() && new.length() <= MAX_SPEED + 1e-5,
                    "at {position} preferring {preferred}: {new}"
                );
            }
        }
        let mut agents = [CrowdAgent::standing(
            position,
            Vector::ZERO,
            MAX_SPEED,
            params(),
        )];
        ContactPass::default().separate(&mut agents, &obstacles, &mut ContactScratch::default());
        let freed = agents[0].position;
        assert!(
            clearance(&shapes[0], freed) >= RADIUS - 1e-3,
            "from {position} to {freed}"
        );
    }
}

#[test]
fn update_rebuilds_only_when_the_shapes_change() {
    let mut shapes = field();
    let mut obstacles = OrcaObstacles::default();
    assert!(obstacles.is_empty());
    assert!(obstacles.update(&shapes));
    assert!(!obstacles.is_empty());
    let edges: Vec<_> = obstacles.edges().collect();
    assert!(!obstacles.update(&shapes));
    shapes.pop();
    assert!(obstacles.update(&shapes));
    assert_eq!(
        obstacles.edges().collect::<Vec<_>>(),
        edges,
        "the circle had no edges"
    );
    shapes.pop();
    assert!(obstacles.update(&shapes));
    assert!(obstacles.edges().count() < edges.len());
}

#[test]
fn steps_take_shapes_as_the_plugin_passes_them_or_obstacles_built_once() {
    // A slice, a `Vec` borrowed mutably: built into the crowd's kept obstacles; the same
    // velocities as obstacles built once.
    let mut shapes = field();
    let obstacles = OrcaObstacles::from_shapes(&shapes);
    let (agents, goals) = ring();
    let agents: Vec<CrowdAgent> = (agents.into_iter().zip(&goals))
        .map(|(agent, goal)| CrowdAgent {
            position: agent.position * 0.5,
            preferred_velocity: (*goal - agent.position).clamp_length_max(MAX_SPEED),
            ..agent
        })
        .collect();
    let mut crowd = OrcaCrowd::default();
    crowd.compute(&agents, &obstacles, TIME_STEP, &Serial);
    let built_once = crowd.new_velocities().to_vec();
    crowd.compute_in(None, &agents, shapes.as_slice(), TIME_STEP, &Serial);
    assert_eq!(crowd.new_velocities(), built_once);
    crowd.compute(&agents, &mut shapes, TIME_STEP, &Serial);
    assert_eq!(crowd.new_velocities(), built_once);
    // Shapes that change: the crowd's kept obstacles are rebuilt.
    shapes.truncate(4);
    crowd.compute(&agents, shapes.as_slice(), TIME_STEP, &Serial);
    let changed = crowd.new_velocities().to_vec();
    crowd.compute(
        &agents,
        OrcaObstacles::from_shapes(&shapes),
        TIME_STEP,
        &Serial,
    );
    assert_eq!(crowd.new_velocities(), changed);
    assert_ne!(changed, built_once, "fewer obstacles, other velocities");
    let mut moved = agents.clone();
    let pass = ContactPass::default();
    pass.separate(&mut moved, &mut shapes, &mut ContactScratch::default());
    let mut again = agents.clone();
    pass.separate(
        &mut again,
        OrcaObstacles::from_shapes(&shapes),
        &mut ContactScratch::default(),
    );
    assert_eq!(moved, again);
}
