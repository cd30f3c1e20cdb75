//! Paths, leaders, offset pursuit and formations (Reynolds 1999) through the plugin, in a
//! headless `App`. `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in its manifest),
//! where every point is on the ground (x-z, through `steering::level`), off the plane z = 0 that
//! a planar bug would stay in.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::Vector;
use bevy_flock::flock_core::steering::{Frame, formation_slots};
use bevy_flock::prelude::*;

use common::*;

/// A flock whose boids ignore each other, with free edges: behaviours alone move them.
fn app() -> App {
    app_with(no_flocking())
}

/// A boid at rest at `point` with `behaviour`.
fn boid(app: &mut App, point: Vector, behaviour: impl Bundle) -> Entity {
    spawn_boid(app, (AGILE, at(point), Velocity(Vector::ZERO), behaviour))
}

/// Whether segments `a0-a1` and `b0-b1` cross on the ground: each has its ends on opposite
/// sides of the other's line, by more than a tenth of a unit. Paths along one line (a member
/// heading for a slot straight behind a slot another member heads for), which the
/// assignment leaves as they are (swapping gains nothing), are not crossings.
fn cross(a0: Vector, a1: Vector, b0: Vector, b1: Vector) -> bool {
    let flat = |v: Vector| (v.dot(level(1.0, 0.0)), v.dot(level(0.0, 1.0)));
    // The signed distance of `r` from the line through `p` and `q`.
    let side = |p: Vector, q: Vector, r: Vector| {
        let ((px, py), (qx, qy), (rx, ry)) = (flat(p), flat(q), flat(r));
        ((qx - px) * (ry - py) - (qy - py) * (rx - px)) / p.distance(q).max(1e-6)
    };
    // Half a unit either side: paths along one line (a member behind another, both heading
    // for slots on that line) may touch within rounding, where a swap shortens nothing.
    let apart = |d0: f32, d1: f32| d0 * d1 < 0.0 && d0.abs() > 0.5 && d1.abs() > 0.5;
    apart(side(b0, b1, a0), side(b0, b1, a1)) && apart(side(a0, a1, b0), side(a0, a1, b1))
}

#[test]
fn path_followers_reach_the_corridor_stay_in_it_and_go_round_both_ways() {
    let mut app = app();
    let corners = [
        (-200.0, -100.0),
        (200.0, -100.0),
        (200.0, 100.0),
        (-200.0, 100.0),
    ];
    let path = FlockPath {
        points: corners.map(|(x, y)| level(x, y)).to_vec(),
        radius: 20.0,
        looped: true,
    };
    let polyline = path.polyline().unwrap();
    let path = app.world_mut().spawn(path).id();
    let forward = FollowPath {
        params: PathFollowParams {
            predict_time: 0.2,
            look_ahead: 30.0,
            direction: PathDirection::Forward,
        },
        ..FollowPath::new(path)
    };
    let backward = FollowPath {
        params: PathFollowParams {
            direction: PathDirection::Backward,
            ..forward.params
        },
        ..forward
    };
    let boids = [
        (boid(&mut app, level(0.0, -160.0), forward), 1.0),
        (boid(&mut app, level(0.0, 0.0), forward), 1.0),
        (boid(&mut app, level(260.0, 40.0), backward), -1.0),
    ];
    let mut reached = [false; 3];
    let mut along: Vec<f32> = boids
        .iter()
        .map(|&(boid, _)| polyline.project(position(&app, boid)).along)
        .collect();
    let mut progress = [0.0f32; 3];
    for _ in 0..1200 {
        step(&mut app, 1);
        for (i, &(boid, _)) in boids.iter().enumerate() {
            let projected = polyline.project(position(&app, boid));
            reached[i] |= projected.off_path <= polyline.radius();
            if reached[i] {
                assert!(
                    projected.off_path <= polyline.radius(),
                    "boid {i} left the corridor: {} off the path",
                    projected.off_path
                );
            }
            progress[i] += polyline.progress(along[i], projected.along);
            along[i] = projected.along;
        }
    }
    assert_eq!(reached, [true; 3]);
    // 20 s at up to 120 units a second round a 1,200-unit loop: well over a lap each, each
    // in its own direction.
    for (i, &(_, sign)) in boids.iter().enumerate() {
        assert!(
            sign * progress[i] > 1.2 * polyline.length(),
            "boid {i}: {}",
            progress[i]
        );
    }
}

#[test]
fn bad_or_missing_paths_give_no_force_and_no_nan() {
    let mut app = app();
    let bad_paths = [
        FlockPath {
            points: vec![level(0.0, 0.0)],
            radius: 10.0,
            looped: false,
        },
        FlockPath {
            points: vec![level(0.0, 0.0), level(100.0, 0.0)],
            radius: -1.0,
            looped: false,
        },
        FlockPath {
            points: vec![level(0.0, 0.0), Vector::splat(f32::NAN)],
            radius: f32::NAN,
            looped: true,
        },
    ];
    let mut paths: Vec<Entity> = bad_paths
        .into_iter()
        .map(|path| app.world_mut().spawn(path).id())
        .collect();
    let gone = app.world_mut().spawn_empty().id();
    app.world_mut().despawn(gone);
    paths.push(gone);
    let start = level(30.0, 20.0);
    let moving = Velocity(level(10.0, 0.0));
    let boids: Vec<Entity> = paths
        .iter()
        .map(|&path| {
            let follow = FollowPath {
                params: PathFollowParams {
                    predict_time: f32::NAN,
                    look_ahead: -5.0,
                    direction: PathDirection::Forward,
                },
                ..FollowPath::new(path)
            };
            spawn_boid(&mut app, (AGILE, at(start), moving, follow))
        })
        .collect();
    step(&mut app, 60);
    for boid in boids {
        assert_eq!(velocity(&app, boid), moving.0, "a bad path gave a force");
        assert!(position(&app, boid).is_finite());
    }
    // The path fixed: now they follow it.
    let fixed = FlockPath {
        points: vec![level(0.0, -100.0), level(100.0, -100.0)],
        radius: 10.0,
        looped: false,
    };
    app.world_mut().entity_mut(paths[0]).insert(fixed);
    step(&mut app, 1);
    let follower = paths_follower(&mut app, paths[0]);
    assert_ne!(velocity(&app, follower), moving.0);
}

fn paths_follower(app: &mut App, path: Entity) -> Entity {
    app.world_mut()
        .query::<(Entity, &FollowPath)>()
        .iter(app.world())
        .find(|(_, follow)| follow.path == path)
        .unwrap()
        .0
}

/// A leader driving straight at 60 along +x on the ground (no behaviours: it coasts).
fn leader(app: &mut App) -> Entity {
    spawn_boid(app, (AGILE, Velocity(level(60.0, 0.0))))
}

#[test]
fn followers_get_out_of_the_leaders_way_and_stay_behind_it() {
    let mut app = app();
    let leader = leader(&mut app);
    let params = LeaderFollowParams::default();
    let followers: Vec<Entity> = [(50.0, 5.0), (80.0, -5.0), (30.0, 0.0), (60.0, 0.0)]
        .into_iter()
        .map(|(x, y)| boid(&mut app, level(x, y), FollowLeader::new(leader)))
        .collect();
    let mut in_the_way = 0;
    let mut closest = f32::INFINITY;
    for step_index in 0..600 {
        step(&mut app, 1);
        let lead = bevy_flock::flock_core::steering::Leader {
            position: position(&app, leader),
            heading: level(1.0, 0.0),
        };
        for &follower in &followers {
            let here = position(&app, follower);
            closest = closest.min(here.distance(lead.position));
            if step_index >= 120
                && bevy_flock::flock_core::steering::in_leader_way(&lead, here, &params)
            {
                in_the_way += 1;
            }
        }
    }
    assert_eq!(
        in_the_way, 0,
        "follower-steps in the leader's way after 2 s"
    );
    // Out of its way means round the leader, not through it.
    assert!(
        closest > 5.0,
        "a follower came within {closest} of the leader"
    );
    for &follower in &followers {
        let offset = position(&app, follower) - position(&app, leader);
        assert!(
            offset.dot(level(1.0, 0.0)) < 0.0,
            "ahead of the leader: {offset}"
        );
        assert!(offset.length() < 150.0, "left behind: {offset}");
    }
    // Followers keep apart.
    for (i, &a) in followers.iter().enumerate() {
        for &b in &followers[i + 1..] {
            let gap = position(&app, a).distance(position(&app, b));
            assert!(gap > 0.5 * params.separation, "{gap}");
        }
    }
    // The leader despawned: no force (they coast), nothing lost, nothing NaN.
    app.world_mut().despawn(leader);
    step(&mut app, 1);
    let coasting: Vec<Vector> = followers.iter().map(|&f| velocity(&app, f)).collect();
    step(&mut app, 30);
    for (&follower, before) in followers.iter().zip(coasting) {
        assert_eq!(velocity(&app, follower), before);
        assert!(position(&app, follower).is_finite());
    }
}

#[test]
fn escorts_hold_their_stations_and_coast_when_the_target_is_gone() {
    let mut app = app();
    let leader = leader(&mut app);
    let stations = [level(0.0, 40.0), level(0.0, -40.0), level(-40.0, 0.0)];
    let escorts: Vec<Entity> = stations
        .iter()
        .zip([
            level(-200.0, 150.0),
            level(100.0, -120.0),
            level(-300.0, 0.0),
        ])
        .map(|(&offset, start)| {
            let pursuit = OffsetPursuit {
                target: leader,
                offset,
                slow_radius: 60.0,
                max_look_ahead: 1.0,
                weight: 1.0,
            };
            boid(&mut app, start, pursuit)
        })
        .collect();
    step(&mut app, 360);
    for (&escort, &offset) in escorts.iter().zip(&stations) {
        let station = position(&app, leader) + offset;
        let gap = position(&app, escort).distance(station);
        assert!(gap < 1.0, "{gap} from its station");
        let speed = velocity(&app, escort);
        assert!((speed - level(60.0, 0.0)).length() < 1.0, "{speed}");
    }
    app.world_mut().despawn(leader);
    step(&mut app, 1);
    let before = velocity(&app, escorts[0]);
    step(&mut app, 10);
    assert_eq!(velocity(&app, escorts[0]), before);
}

/// Each member's slot as a world point, from the formation's layout and the anchor's frame.
fn slot_points(app: &App, anchor: Entity, count: usize) -> Vec<Vector> {
    let formation = app.world().get::<Formation>(anchor).unwrap();
    let frame = Frame {
        position: position(app, anchor),
        velocity: velocity(app, anchor),
        heading: velocity(app, anchor),
    };
    formation_slots(&formation.shape, count, formation.spacing)
        .unwrap()
        .into_iter()
        .map(|slot| frame.point_at(slot + formation.offset))
        .collect()
}

fn member_slots(app: &App, members: &[Entity]) -> Vec<Option<usize>> {
    members
        .iter()
        .map(|&member| app.world().get::<FormationMember>(member).unwrap().slot)
        .collect()
}

/// Steps `steps` times, checking at every step that no two members' straight paths to their
/// slots cross; then that every slot is filled, by a member within `within` of it.
fn form_up(app: &mut App, anchor: Entity, members: &[Entity], steps: usize, within: f32) {
    for _ in 0..steps {
        step(app, 1);
        let slots = slot_points(app, anchor, members.len());
        let assigned = member_slots(app, members);
        for i in 0..members.len() {
            for j in i + 1..members.len() {
                let (a, b) = (position(app, members[i]), position(app, members[j]));
                let (sa, sb) = (slots[assigned[i].unwrap()], slots[assigned[j].unwrap()]);
                assert!(
                    !cross(a, sa, b, sb),
                    "members {i} and {j} cut across: {a} to {sa}, {b} to {sb}"
                );
            }
        }
    }
    let slots = slot_points(app, anchor, members.len());
    let mut filled: Vec<usize> = member_slots(app, members)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    filled.sort_unstable();
    assert_eq!(filled, (0..members.len()).collect::<Vec<_>>());
    for (&member, slot) in members.iter().zip(member_slots(app, members)) {
        let gap = position(app, member).distance(slots[slot.unwrap()]);
        assert!(gap < within, "{gap} from its slot");
    }
}

/// A formation anchor that is not a boid: the test moves it.
fn move_anchor(app: &mut App, anchor: Entity, to: Vector, velocity: Vector) {
    app.world_mut()
        .entity_mut(anchor)
        .insert((at(to), Velocity(velocity)));
}

#[test]
fn formations_fill_every_slot_without_crossing_turn_and_close_up() {
    for shape in [
        FormationShape::Line,
        FormationShape::Column,
        FormationShape::Wedge,
        FormationShape::Ring,
        FormationShape::Grid { columns: 3 },
    ] {
        let mut app = app();
        let anchor = app
            .world_mut()
            .spawn((
                Formation {
                    shape: shape.clone(),
                    spacing: 30.0,
                    offset: Vector::ZERO,
                },
                at(Vector::ZERO),
                Velocity(level(1.0, 0.0) * 1e-3),
            ))
            .id();
        // Eight members scattered round the anchor.
        let members: Vec<Entity> = (0..8)
            .map(|i| {
                let angle = i as f32 * 2.4;
                let start = level(angle.cos(), angle.sin()) * (150.0 + 20.0 * i as f32);
                boid(&mut app, start, FormationMember::new(anchor))
            })
            .collect();
        form_up(&mut app, anchor, &members, 300, 1.0);
        // Sent off to the left at 40: the formation turns a quarter and follows.
        let mut anchor_at = Vector::ZERO;
        let heading = level(0.0, 40.0);
        for _ in 0..300 {
            anchor_at += heading / 60.0;
            move_anchor(&mut app, anchor, anchor_at, heading);
            form_up(&mut app, anchor, &members, 1, f32::INFINITY);
        }
        form_up(&mut app, anchor, &members, 0, 2.0);
        // A member lost: the others close up and fill every slot of the smaller formation.
        app.world_mut().despawn(members[3]);
        let rest: Vec<Entity> = members
            .iter()
            .copied()
            .filter(|&m| m != members[3])
            .collect();
        for _ in 0..240 {
            anchor_at += heading / 60.0;
            move_anchor(&mut app, anchor, anchor_at, heading);
            form_up(&mut app, anchor, &rest, 1, f32::INFINITY);
        }
        form_up(&mut app, anchor, &rest, 0, 2.0);
    }
}

#[test]
fn bad_formations_give_no_force_or_leave_the_furthest_without_a_slot() {
    let mut app = app();
    let formations = [
        Formation {
            spacing: f32::NAN,
            ..Formation::default()
        },
        Formation {
            shape: FormationShape::Custom(Vec::new()),
            ..Formation::default()
        },
        Formation {
            shape: FormationShape::Grid { columns: 0 },
            ..Formation::default()
        },
    ];
    let mut anchors: Vec<Entity> = formations
        .into_iter()
        .map(|formation| app.world_mut().spawn((formation, at(Vector::ZERO))).id())
        .collect();
    let gone = app.world_mut().spawn_empty().id();
    app.world_mut().despawn(gone);
    anchors.push(gone);
    let coasting = Velocity(level(5.0, 0.0));
    let members: Vec<Entity> = anchors
        .iter()
        .map(|&anchor| {
            let member = FormationMember::new(anchor);
            spawn_boid(&mut app, (AGILE, at(level(50.0, 50.0)), coasting, member))
        })
        .collect();
    step(&mut app, 30);
    for &member in &members {
        assert_eq!(velocity(&app, member), coasting.0);
        assert_eq!(
            app.world().get::<FormationMember>(member).unwrap().slot,
            None
        );
    }
    // Two custom slots for three members: the two nearest take them, the third coasts.
    let pair = app
        .world_mut()
        .spawn((
            Formation {
                shape: FormationShape::Custom(vec![level(0.0, 20.0), level(0.0, -20.0)]),
                ..Formation::default()
            },
            at(Vector::ZERO),
            // Heading +x (at rest an anchor heads the way it faces: +x in 2D, -z in 3D).
            Velocity(level(1.0, 0.0) * 1e-3),
        ))
        .id();
    let starts = [level(10.0, 30.0), level(10.0, -30.0), level(400.0, 0.0)];
    let trio: Vec<Entity> = starts
        .into_iter()
        .map(|start| {
            let member = FormationMember::new(pair);
            spawn_boid(&mut app, (AGILE, at(start), coasting, member))
        })
        .collect();
    step(&mut app, 120);
    assert_eq!(member_slots(&app, &trio), vec![Some(0), Some(1), None]);
    assert!(position(&app, trio[0]).distance(level(0.0, 20.0)) < 1.0);
    assert_eq!(velocity(&app, trio[2]), coasting.0);
}

#[test]
fn numbers_that_are_not_finite_never_reach_a_velocity() {
    let mut app = app();
    let leader = leader(&mut app);
    let anchor = app
        .world_mut()
        .spawn((
            Formation::default(),
            at(Vector::ZERO),
            Velocity(level(1.0, 0.0)),
        ))
        .id();
    let path = app
        .world_mut()
        .spawn(FlockPath {
            points: vec![level(0.0, 0.0), level(100.0, 0.0)],
            radius: 10.0,
            looped: false,
        })
        .id();
    let nan = f32::NAN;
    let boids = [
        boid(
            &mut app,
            level(-50.0, 10.0),
            FollowLeader {
                leader,
                params: LeaderFollowParams {
                    behind: nan,
                    slow_radius: nan,
                    way_length: nan,
                    way_radius: nan,
                    separation: nan,
                },
                weight: 1.0,
            },
        ),
        boid(
            &mut app,
            level(-50.0, -10.0),
            OffsetPursuit {
                target: leader,
                offset: Vector::splat(nan),
                slow_radius: nan,
                max_look_ahead: f32::INFINITY,
                weight: 1.0,
            },
        ),
        boid(
            &mut app,
            level(20.0, 30.0),
            FormationMember {
                slow_radius: nan,
                max_look_ahead: -1.0,
                ..FormationMember::new(anchor)
            },
        ),
        boid(
            &mut app,
            level(20.0, -30.0),
            FollowPath {
                weight: nan,
                ..FollowPath::new(path)
            },
        ),
    ];
    step(&mut app, 120);
    for boid in boids {
        assert!(position(&app, boid).is_finite() && velocity(&app, boid).is_finite());
    }
    assert_eq!(boid_count(&mut app), 5);
}
