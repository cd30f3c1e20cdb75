//! ORCA's parameters as an attacker would set them, one class per test: caps on the neighbour
//! count and distance (reported by `OrcaParams::capped`, counted as the caps), a responsibility
//! too large (clamped, so the pair still avoids), horizons too small to invert (subnormal:
//! invalid), a neighbour with a broken radius or share (still avoided), and the contact pass
//! with agents on one point, broken positions and a broken tolerance, and obstacles that are
//! not finite or beyond the coordinates allowed (left out, each with its reason). No NaN, no
//! panic, no lost agent. `flock_core3d` runs the same cases in 3D.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

use kernel::Vector;
use kernel::steering::{
    ContactPass, ContactScratch, CrowdAgent, MAX_OBSTACLE_COORDINATE, ObstacleFault, OrcaAgent,
    OrcaNeighbour, OrcaObstacles, OrcaParams, OrcaScratch, Shape, orca_velocity,
};

const NO_OBSTACLES: [Shape; 0] = [];

fn axis(x: f32) -> Vector {
    let mut v = Vector::ZERO;
    v[0] = x;
    v
}

/// An agent walking along the first axis at a neighbour walking back, 6 units away.
fn head_on(params: &OrcaParams, their_radius: f32, their_share: f32) -> (Vector, usize) {
    let me = OrcaAgent {
        position: Vector::ZERO,
        velocity: axis(1.0),
        preferred_velocity: axis(1.0),
        max_speed: 2.0,
        id: 0,
    };
    let them = OrcaNeighbour {
        position: axis(6.0),
        velocity: axis(-1.0),
        radius: their_radius,
        share: their_share,
        id: 1,
    };
    let mut scratch = OrcaScratch::default();
    let velocity = orca_velocity(&me, [them], NO_OBSTACLES, params, 0.25, &mut scratch);
    (velocity, scratch.constraints().len())
}

fn base() -> OrcaParams {
    OrcaParams::rvo2(15.0, 10, 10.0, 10.0, 1.0)
}

#[test]
fn a_huge_neighbour_count_or_distance_counts_as_the_cap_and_is_reported() {
    let huge = OrcaParams {
        max_neighbours: usize::MAX,
        neighbour_distance: 1e30,
        ..base()
    };
    assert!(huge.is_valid());
    let note = huge.capped().expect("reported");
    assert!(
        note.contains("max_neighbours") && note.contains("neighbour_distance"),
        "{note}"
    );
    assert_eq!(huge.neighbour_cap(), OrcaParams::MAX_NEIGHBOURS);
    assert_eq!(
        huge.reach(),
        OrcaParams::MAX_NEIGHBOUR_DISTANCE * huge.radius
    );
    let at_caps = OrcaParams {
        max_neighbours: OrcaParams::MAX_NEIGHBOURS,
        neighbour_distance: huge.reach(),
        ..base()
    };
    assert_eq!(at_caps.capped(), None);
    assert_eq!(head_on(&huge, 1.0, 0.5), head_on(&at_caps, 1.0, 0.5));
}

#[test]
fn a_huge_responsibility_is_clamped_and_the_pair_still_avoids() {
    let huge = OrcaParams {
        responsibility: 1e30,
        ..base()
    };
    assert!(
        huge.capped()
            .is_some_and(|note| note.contains("responsibility"))
    );
    let share = huge.share(axis(1.0), 2.0);
    assert_eq!(share, 1.0);
    // Against a neighbour of the same huge weight: half and half, as with weights of one.
    let (velocity, constraints) = head_on(&huge, 1.0, share);
    let ones = OrcaParams {
        responsibility: 1.0,
        ..base()
    };
    assert_eq!((velocity, constraints), head_on(&ones, 1.0, 1.0));
    assert!(
        velocity.is_finite() && velocity != axis(1.0),
        "it avoids: {velocity}"
    );
}

#[test]
fn subnormal_or_zero_horizons_and_radii_are_invalid() {
    for broken in [
        OrcaParams {
            time_horizon: 1e-40,
            ..base()
        },
        OrcaParams {
            obstacle_time_horizon: f32::MIN_POSITIVE / 2.0,
            ..base()
        },
        OrcaParams {
            radius: 1e-42,
            ..base()
        },
        OrcaParams {
            responsibility: 0.0,
            ..base()
        },
    ] {
        assert!(!broken.is_valid(), "{broken:?}");
        // Unavoided, the preferred velocity as it is, finite.
        assert_eq!(head_on(&broken, 1.0, 0.5), (axis(1.0), 0));
    }
}

#[test]
fn a_neighbour_with_a_broken_radius_or_share_is_still_avoided() {
    let (fine, _) = head_on(&base(), 1.0, 0.5);
    for radius in [f32::NAN, f32::INFINITY, -1.0] {
        // Counted as the agent's own size (1.0 here) and avoided.
        assert_eq!(head_on(&base(), radius, 0.5), (fine, 1), "radius {radius}");
    }
    for share in [f32::NAN, f32::NEG_INFINITY, -3.0] {
        // Counted as sharing half and half.
        assert_eq!(head_on(&base(), 1.0, share), (fine, 1), "share {share}");
    }
}

fn body(position: Vector) -> CrowdAgent {
    CrowdAgent::standing(position, Vector::ZERO, 2.0, base())
}

#[test]
fn the_contact_pass_parts_agents_on_one_point_and_leaves_broken_ones_alone() {
    let mut agents: Vec<CrowdAgent> = (0..5).map(|_| body(axis(3.0))).collect();
    agents.push(body(Vector::NAN));
    agents.push(CrowdAgent {
        params: OrcaParams {
            radius: f32::NAN,
            ..base()
        },
        ..body(axis(3.0))
    });
    let mut scratch = ContactScratch::default();
    let left = ContactPass::default().separate(&mut agents, &NO_OBSTACLES, &mut scratch);
    assert!(left <= 1e-3, "{left}");
    for (i, a) in agents[..5].iter().enumerate() {
        assert!(a.position.is_finite());
        for b in &agents[i + 1..5] {
            assert!(a.position.distance(b.position) >= 2.0 - 1e-3, "{a:?} {b:?}");
        }
    }
    assert!(
        agents[5].position.is_nan(),
        "a broken position is left as it is"
    );
    assert_eq!(
        agents[6].position,
        axis(3.0),
        "a broken radius takes no part"
    );

    // A tolerance that is not a number: nothing moves.
    let before: Vec<Vector> = (0..3).map(|_| axis(1.0)).collect();
    let mut same: Vec<CrowdAgent> = before.iter().map(|&p| body(p)).collect();
    let broken = ContactPass {
        tolerance: f32::NAN,
        ..ContactPass::default()
    };
    assert!(!broken.is_valid());
    assert_eq!(broken.separate(&mut same, &NO_OBSTACLES, &mut scratch), 0.0);
    assert!(same.iter().zip(&before).all(|(a, p)| a.position == *p));
}

#[test]
fn a_contact_slip_out_of_range_is_clamped_and_never_brings_agents_closer() {
    let packed = || -> Vec<CrowdAgent> {
        (0..12)
            .map(|i| body(axis(0.1 * i as f32) + Vector::ONE * 0.01 * (i % 3) as f32))
            .collect()
    };
    let run = |slip: f32| {
        let mut agents = packed();
        let pass = ContactPass {
            slip,
            ..ContactPass::default()
        };
        let left = pass.separate(&mut agents, &NO_OBSTACLES, &mut ContactScratch::default());
        (agents, left)
    };
    let (plain, _) = run(0.0);
    let (full, _) = run(1.0);
    for slip in [f32::NAN, f32::NEG_INFINITY, f32::INFINITY, -2.0] {
        let (agents, _) = run(slip);
        let same = agents
            .iter()
            .zip(&plain)
            .all(|(a, b)| a.position == b.position);
        assert!(same, "slip {slip} counts as 0");
    }
    for slip in [1.5, 1e30] {
        let (agents, _) = run(slip);
        let same = agents
            .iter()
            .zip(&full)
            .all(|(a, b)| a.position == b.position);
        assert!(same, "slip {slip} counts as 1");
    }
    for slip in [0.0, 0.5, 1.0, f32::NAN, 1e30] {
        let (agents, left) = run(slip);
        assert!(left <= 1e-3, "slip {slip}: {left} left");
        for (i, a) in agents.iter().enumerate() {
            assert!(a.position.is_finite(), "slip {slip}");
            for b in &agents[i + 1..] {
                let gap = a.position.distance(b.position);
                assert!(gap >= 2.0 - 1e-3, "slip {slip}: {gap}");
            }
        }
    }
}

#[cfg(not(flock_3d))]
#[test]
fn the_contact_slip_turns_a_pair_clockwise_about_its_midpoint() {
    let mut agents = vec![body(axis(0.0)), body(axis(1.0))];
    let pass = ContactPass {
        slip: 0.5,
        ..ContactPass::default()
    };
    pass.separate(&mut agents, &NO_OBSTACLES, &mut ContactScratch::default());
    let (a, b) = (agents[0].position, agents[1].position);
    assert!(
        ((a + b) / 2.0 - axis(0.5)).length() < 1e-5,
        "the midpoint stays"
    );
    // Apart along x, and turned clockwise: the first (left) agent up, the second down.
    assert!(a.x < 0.0 && b.x > 1.0, "{a} {b}");
    assert!(a.y > 0.0 && b.y < 0.0, "{a} {b}");
    assert!(a.distance(b) >= 2.0 - 1e-4);
}

#[test]
fn broken_obstacles_are_left_out_with_their_reason_and_the_rest_still_avoided() {
    let ball = |centre: Vector, radius: f32| {
        #[cfg(not(flock_3d))]
        return Shape::Circle { centre, radius };
        #[cfg(flock_3d)]
        return Shape::Sphere { centre, radius };
    };
    let shapes = [
        ball(axis(f32::NAN), 1.0),
        ball(axis(4.0), f32::INFINITY),
        ball(axis(4.0), -1.0),
        ball(axis(MAX_OBSTACLE_COORDINATE * 2.0), 1.0),
        ball(axis(4.0), MAX_OBSTACLE_COORDINATE * 2.0),
        ball(axis(4.0), 1.0),
    ];
    let obstacles = OrcaObstacles::from_shapes(&shapes);
    let faults: Vec<(usize, ObstacleFault)> = (obstacles.problems().iter())
        .map(|problem| (problem.obstacle, problem.fault))
        .collect();
    assert_eq!(
        faults,
        [
            (0, ObstacleFault::NotFinite),
            (1, ObstacleFault::NotFinite),
            (2, ObstacleFault::NotFinite),
            (3, ObstacleFault::TooLarge),
            (4, ObstacleFault::TooLarge),
        ]
    );
    assert!(obstacles.problems()[3].to_string().contains("obstacle 3"));
    // The good ball is avoided: an agent walking at it stops short.
    let mut me = OrcaAgent {
        position: Vector::ZERO,
        velocity: Vector::ZERO,
        preferred_velocity: axis(2.0),
        max_speed: 2.0,
        id: 0,
    };
    let params = OrcaParams::rvo2(10.0, 10, 2.0, 2.0, 1.0);
    let mut scratch = OrcaScratch::default();
    for _ in 0..100 {
        me.velocity = orca_velocity(&me, [], &obstacles, &params, 0.1, &mut scratch);
        me.position += me.velocity * 0.1;
        assert!(me.position.is_finite());
    }
    assert!(
        me.position.distance(axis(4.0)) >= 2.0 - 1e-3,
        "at {}",
        me.position
    );
}
