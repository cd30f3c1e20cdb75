//! Gameplay on the device against a CPU reference built here from flock_core's functions:
//! species that flock only with their own kind under their own rules (each a CPU flock of its
//! own), hunts (prey `flee_all` their predators, predators `pursue` the nearest prey), and
//! points (`arrive`, `flee`, `evade`), obstacles (`avoid_obstacles` over every `Shape`), an
//! enclosure (`contain`), the behaviours' sum truncated to the max force
//! (`combine`) as the Bevy plugin adds it to the flocking force. One step from the same state
//! gives the same boids to within rounding, with the behaviours' sums both above and below the
//! force limit. `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::{all_finite, device, world_size};
use flock_core::steering::{
    Enclosure, Rotation, Shape, Vehicle, arrive, avoid_obstacles, combine, contain, evade,
    flee_all, pursue,
};
use flock_core::{
    EdgeMode, Flock, FlockConfig, RuleWeights, Space, StepConstants, Vector, apply_edge, integrate,
    rule_forces,
};
use flock_gpu::{Containment, DeviceFlock, GpuHunt, GpuPoint, ObstacleAvoidance, SpeciesSettings};

/// Positions may differ by this share of the world's size.
const POSITION_TOLERANCE: f32 = 1e-5;
/// Velocities may differ by this share of the largest max speed.
const VELOCITY_TOLERANCE: f32 = 1e-4;

/// What a step's gameplay is: species (none: the flock's own rules), each boid's species,
/// hunts, points and obstacles.
#[derive(Default)]
struct Gameplay<'a> {
    species: &'a [SpeciesSettings],
    kinds: &'a [u32],
    hunts: &'a [GpuHunt],
    points: &'a [GpuPoint],
    obstacles: &'a [Shape],
    avoidance: Option<ObstacleAvoidance>,
    containment: Option<Containment>,
}

/// How often the reference's behaviours acted: boids with a hunt, point or obstacle force
/// (escaping an obstacle they are inside, or dodging one ahead), and of those how many had a
/// sum below the max force (the truncation left alone).
#[derive(Debug, Default)]
struct Acted {
    fled: usize,
    chased: usize,
    escaped: usize,
    dodged: usize,
    came_back: usize,
    turned_back: usize,
    steered: usize,
    below_limit: usize,
}

/// One step of every boid on the CPU, from flock_core's functions.
fn reference_step(
    config: &FlockConfig,
    gameplay: &Gameplay,
    positions: &[Vector],
    velocities: &[Vector],
    dt: f32,
) -> (Vec<Vector>, Vec<Vector>, Acted) {
    let own = [SpeciesSettings::from_config(config)];
    let species = if gameplay.species.is_empty() {
        &own[..]
    } else {
        gameplay.species
    };
    let kind_of = |boid: usize| {
        if gameplay.species.is_empty() {
            0
        } else {
            gameplay.kinds[boid]
        }
    };
    let space = Space::of(config);
    let mut acted = Acted::default();
    let (mut new_positions, mut new_velocities) = (positions.to_vec(), velocities.to_vec());
    for boid in 0..positions.len() {
        let kind = kind_of(boid);
        let rules = species[kind as usize].config_for(config);
        let members: Vec<u32> = (0..positions.len() as u32)
            .filter(|&other| kind_of(other as usize) == kind)
            .collect();
        let flocking = rule_forces(
            boid,
            positions,
            velocities,
            &members,
            &StepConstants::new(&rules),
        )
        .weighted(&rules.weights);
        let me = Vehicle {
            position: positions[boid],
            velocity: velocities[boid],
            max_speed: rules.max_speed,
            response_time: config.response_time,
        };
        let here = me.position;
        let seen = |other: usize| here + space.delta(here, positions[other]);
        let mut sum = Vector::ZERO;
        let mut acts = false;
        for hunt in gameplay.hunts {
            if kind == hunt.prey {
                let threats = (0..positions.len())
                    .filter(|&other| kind_of(other) == hunt.predator)
                    .map(seen);
                let force = hunt.flee_weight * flee_all(&me, threats, hunt.flee_radius);
                if force != Vector::ZERO {
                    acted.fled += 1;
                    acts = true;
                }
                sum += force;
            }
            if kind == hunt.predator {
                let nearest = (0..positions.len())
                    .filter(|&other| kind_of(other) == hunt.prey)
                    .map(|other| (seen(other), velocities[other]))
                    .filter(|(at, _)| at.distance_squared(here) < hunt.chase_radius.powi(2))
                    .min_by(|a, b| {
                        a.0.distance_squared(here)
                            .total_cmp(&b.0.distance_squared(here))
                    });
                if let Some((at, velocity)) = nearest {
                    sum += hunt.chase_weight * pursue(&me, at, velocity, hunt.max_look_ahead);
                    acted.chased += 1;
                    acts = true;
                }
            }
        }
        for point in gameplay.points {
            let force = match *point {
                GpuPoint::Attractor {
                    position,
                    slow_radius,
                    weight,
                } => weight * arrive(&me, position, slow_radius),
                GpuPoint::Repeller {
                    position,
                    radius,
                    weight,
                } => weight * flee_all(&me, [position], radius),
                GpuPoint::Predator {
                    position,
                    velocity,
                    radius,
                    weight,
                    max_look_ahead,
                } => weight * evade(&me, position, velocity, max_look_ahead, radius),
            };
            acts |= force != Vector::ZERO;
            sum += force;
        }
        if let Some(avoidance) = gameplay.avoidance {
            let force = avoid_obstacles(
                &me,
                gameplay.obstacles,
                avoidance.look_ahead,
                avoidance.clearance,
            );
            if force != Vector::ZERO {
                acts = true;
                match gameplay
                    .obstacles
                    .iter()
                    .any(|shape| shape.way_out(here).is_some())
                {
                    true => acted.escaped += 1,
                    false => acted.dodged += 1,
                }
            }
            sum += avoidance.weight * force;
        }
        if let Some(containment) = &gameplay.containment {
            let force = contain(&me, &containment.enclosure, containment.look_ahead);
            if force != Vector::ZERO {
                acts = true;
                match containment.enclosure.contains(here) {
                    true => acted.turned_back += 1,
                    false => acted.came_back += 1,
                }
            }
            sum += containment.weight * force;
        }
        if acts {
            acted.steered += 1;
            acted.below_limit += usize::from(sum.length() < rules.max_force);
        }
        let acceleration = flocking / config.mass + combine(sum, rules.max_force, config.mass);
        integrate(
            &rules,
            dt,
            &mut new_positions[boid],
            &mut new_velocities[boid],
            acceleration,
        );
        apply_edge(
            config.edges,
            &config.bounds,
            &mut new_positions[boid],
            &mut new_velocities[boid],
        );
    }
    (new_positions, new_velocities, acted)
}

/// Steps `start` once on the GPU and on the CPU and checks they agree; returns what the
/// reference's behaviours did.
fn compare_one_step(
    gpu: &mut DeviceFlock,
    config: FlockConfig,
    gameplay: &Gameplay,
    start: &Flock,
    case: &str,
) -> Acted {
    let dt = 1.0 / 60.0;
    gpu.set_config(config).unwrap();
    gpu.clear_species();
    gpu.upload(start.positions(), start.velocities()).unwrap();
    if !gameplay.species.is_empty() {
        gpu.set_species(gameplay.species).unwrap();
        gpu.upload_species(gameplay.kinds).unwrap();
    }
    gpu.set_hunts(gameplay.hunts).unwrap();
    gpu.set_points(gameplay.points).unwrap();
    let avoidance = gameplay.avoidance.unwrap_or(ObstacleAvoidance {
        look_ahead: 1.0,
        clearance: 0.0,
        weight: 1.0,
    });
    gpu.set_obstacles(gameplay.obstacles, avoidance).unwrap();
    gpu.set_containment(gameplay.containment.as_ref()).unwrap();
    gpu.step(dt).unwrap();
    let (positions, velocities) = gpu.read_back().unwrap();
    assert!(all_finite(&positions) && all_finite(&velocities), "{case}");
    let (cpu_positions, cpu_velocities, acted) =
        reference_step(&config, gameplay, start.positions(), start.velocities(), dt);
    let seams = Space {
        bounds: config.bounds,
        periodic: config.edges == EdgeMode::Wrap,
    };
    let largest = |a: &[Vector], b: &[Vector], space: &Space| {
        a.iter()
            .zip(b)
            .map(|(a, b)| space.delta(*a, *b).length())
            .fold(0.0, f32::max)
    };
    let plain = Space {
        periodic: false,
        ..seams
    };
    let max_speed = gameplay
        .species
        .iter()
        .map(|species| species.max_speed)
        .fold(config.max_speed, f32::max);
    let position_error = largest(&positions, &cpu_positions, &seams);
    let velocity_error = largest(&velocities, &cpu_velocities, &plain);
    let position_tolerance = POSITION_TOLERANCE * world_size(&config);
    let velocity_tolerance = VELOCITY_TOLERANCE * max_speed;
    println!(
        "{case}: positions differ by {position_error:.2e}, velocities by {velocity_error:.2e} \
         ({:.1e} of the max speed); {acted:?}",
        velocity_error / max_speed
    );
    assert!(
        position_error <= position_tolerance && velocity_error <= velocity_tolerance,
        "{case}: positions differ by {position_error} (tolerance {position_tolerance}), \
         velocities by {velocity_error} (tolerance {velocity_tolerance})"
    );
    acted
}

/// Three species with rules of their own: a slow, tight one, a fast loose one and one that
/// only keeps apart. `max_force` is each one's, scaled by `force_scale`.
fn three_species(config: &FlockConfig, force_scale: f32) -> [SpeciesSettings; 3] {
    let base = SpeciesSettings::from_config(config);
    [
        SpeciesSettings {
            separation_radius: 15.0,
            alignment_radius: 30.0,
            cohesion_radius: 40.0,
            max_speed: 0.75 * config.max_speed,
            max_force: 1.5 * config.max_force * force_scale,
            ..base
        },
        SpeciesSettings {
            weights: RuleWeights {
                separation: 2.0,
                alignment: 0.5,
                cohesion: 1.5,
            },
            separation_radius: 30.0,
            alignment_radius: 70.0,
            cohesion_radius: 60.0,
            max_speed: 1.5 * config.max_speed,
            max_force: config.max_force * force_scale,
        },
        SpeciesSettings {
            weights: RuleWeights {
                separation: 1.0,
                ..RuleWeights::NONE
            },
            max_force: 0.5 * config.max_force * force_scale,
            ..base
        },
    ]
}

/// Each boid's species, mixed through the flock.
fn kinds_of(count: usize, species: u32) -> Vec<u32> {
    (0..count as u32)
        .map(|boid| (boid * 7 + boid / 5) % species)
        .collect()
}

/// The force limits' two regimes: the flock's (Processing's: every rule force and behaviour
/// sum reaches it) and one a hundred times higher, where most stay below it.
const FORCE_SCALES: [(&str, f32); 2] = [("at the force limit", 1.0), ("below it", 100.0)];

/// The default configuration with its max force scaled by `scale`: in each of
/// [`FORCE_SCALES`], the flock's behaviours' sums reach the limit or stay below it.
fn scaled_config(scale: f32) -> FlockConfig {
    FlockConfig {
        max_force: FlockConfig::default().max_force * scale,
        ..FlockConfig::default()
    }
}

/// A flock on the test device for [`compare_one_step`] to load, or `None` without a device.
fn device_flock() -> Option<DeviceFlock> {
    let (device, queue) = device()?;
    Some(DeviceFlock::new(device, queue, FlockConfig::default(), 0).unwrap())
}

/// A hunt of `prey` by `predator` over 60 units, both at weight 0.02, looking a second ahead.
fn hunt(predator: u32, prey: u32) -> GpuHunt {
    GpuHunt {
        predator,
        prey,
        flee_radius: 60.0,
        flee_weight: 0.02,
        chase_radius: 60.0,
        chase_weight: 0.02,
        max_look_ahead: 1.0,
    }
}

#[test]
fn species_flock_only_with_their_own_kind_under_their_own_rules() {
    let Some(mut gpu) = device_flock() else {
        return;
    };
    for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
        for (regime, scale) in FORCE_SCALES {
            let config = FlockConfig {
                edges,
                ..FlockConfig::default()
            };
            let species = three_species(&config, scale);
            let start = Flock::random(1500, &config, 21);
            let kinds = kinds_of(start.len(), 3);
            let gameplay = Gameplay {
                species: &species,
                kinds: &kinds,
                hunts: &[],
                points: &[],
                ..Default::default()
            };
            compare_one_step(
                &mut gpu,
                config,
                &gameplay,
                &start,
                &format!("species, {edges:?}, {regime}"),
            );
        }
    }
    // The species matter: the same boids as one flock move otherwise.
    let config = FlockConfig::default();
    let start = Flock::random(1500, &config, 21);
    let kinds = kinds_of(start.len(), 3);
    let species = three_species(&config, 1.0);
    let one_flock = reference_step(
        &config,
        &Gameplay {
            species: &[],
            kinds: &[],
            hunts: &[],
            points: &[],
            ..Default::default()
        },
        start.positions(),
        start.velocities(),
        1.0 / 60.0,
    );
    let by_species = reference_step(
        &config,
        &Gameplay {
            species: &species,
            kinds: &kinds,
            hunts: &[],
            points: &[],
            ..Default::default()
        },
        start.positions(),
        start.velocities(),
        1.0 / 60.0,
    );
    assert_ne!(one_flock.1, by_species.1);
}

#[test]
fn prey_flee_their_predators_and_predators_pursue_the_nearest_prey() {
    let Some(mut gpu) = device_flock() else {
        return;
    };
    for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
        for (regime, scale) in FORCE_SCALES {
            let config = FlockConfig {
                edges,
                ..FlockConfig::default()
            };
            let species = three_species(&config, scale);
            // Species 1 hunts 0 and 2; species 2 hunts 0. Radii beyond the rules' so the grid
            // must reach for them.
            let hunts = [
                GpuHunt {
                    predator: 1,
                    prey: 0,
                    flee_radius: 90.0,
                    flee_weight: 0.02,
                    chase_radius: 120.0,
                    chase_weight: 0.05,
                    max_look_ahead: 0.5,
                },
                GpuHunt {
                    predator: 1,
                    prey: 2,
                    flee_radius: 40.0,
                    flee_weight: 0.05,
                    chase_radius: 60.0,
                    chase_weight: 0.02,
                    max_look_ahead: 0.0,
                },
                GpuHunt {
                    predator: 2,
                    prey: 0,
                    flee_radius: 50.0,
                    flee_weight: 0.03,
                    chase_radius: 80.0,
                    chase_weight: 0.04,
                    max_look_ahead: 2.0,
                },
            ];
            let start = Flock::random(1500, &config, 22);
            let kinds = kinds_of(start.len(), 3);
            let gameplay = Gameplay {
                species: &species,
                kinds: &kinds,
                hunts: &hunts,
                points: &[],
                ..Default::default()
            };
            let acted = compare_one_step(
                &mut gpu,
                config,
                &gameplay,
                &start,
                &format!("hunts, {edges:?}, {regime}"),
            );
            assert!(acted.fled > 300 && acted.chased > 300, "{acted:?}");
            if scale > 1.0 {
                assert!(acted.below_limit * 2 > acted.steered, "{regime}: {acted:?}");
            } else {
                assert!(
                    acted.below_limit * 10 < acted.steered,
                    "{regime}: {acted:?}"
                );
            }
        }
    }
}

/// An attractor with a slow radius, a plain one (seek), a repeller and a moving predator.
fn four_points(config: &FlockConfig) -> Vec<GpuPoint> {
    let size = config.bounds.size();
    let at = |x: f32, y: f32| {
        config.bounds.min + size * Vector::splat(0.5) + {
            let mut offset = Vector::ZERO;
            offset[0] = x;
            offset[1] = y;
            offset
        }
    };
    let mut velocity = Vector::ZERO;
    velocity[0] = 60.0;
    velocity[1] = -30.0;
    vec![
        GpuPoint::Attractor {
            position: at(-200.0, 100.0),
            slow_radius: 300.0,
            weight: 0.01,
        },
        GpuPoint::Attractor {
            position: at(250.0, -150.0),
            slow_radius: 0.0,
            weight: 0.005,
        },
        GpuPoint::Repeller {
            position: at(0.0, 0.0),
            radius: 200.0,
            weight: 0.02,
        },
        GpuPoint::Predator {
            position: at(150.0, 150.0),
            velocity,
            radius: 250.0,
            weight: 0.03,
            max_look_ahead: 1.0,
        },
    ]
}

#[test]
fn attractors_repellers_and_predators_steer_every_boid() {
    let Some(mut gpu) = device_flock() else {
        return;
    };
    for (regime, scale) in FORCE_SCALES {
        let config = scaled_config(scale);
        let points = four_points(&config);
        let start = Flock::random(1500, &config, 23);
        let gameplay = Gameplay {
            species: &[],
            kinds: &[],
            hunts: &[],
            points: &points,
            ..Default::default()
        };
        let acted = compare_one_step(
            &mut gpu,
            config,
            &gameplay,
            &start,
            &format!("points, {regime}"),
        );
        assert_eq!(acted.steered, start.len(), "attractors reach every boid");
        if scale > 1.0 {
            assert!(acted.below_limit * 2 > acted.steered, "{regime}: {acted:?}");
        }
        // With species and hunts too: every behaviour in one sum.
        let species = three_species(&config, scale);
        let kinds = kinds_of(start.len(), 3);
        let hunts = [hunt(0, 2)];
        let gameplay = Gameplay {
            species: &species,
            kinds: &kinds,
            hunts: &hunts,
            points: &points,
            ..Default::default()
        };
        compare_one_step(
            &mut gpu,
            config,
            &gameplay,
            &start,
            &format!("points, species and a hunt, {regime}"),
        );
    }
}

#[test]
fn points_follow_the_game_from_frame_to_frame_and_none_is_the_plain_flock() {
    let Some((device, queue)) = device() else {
        return;
    };
    let config = FlockConfig::default();
    let start = Flock::random(1000, &config, 24);
    let mut gpu = DeviceFlock::new(device, queue, config, 0).unwrap();
    let mut plain = DeviceFlock::new(device, queue, config, 0).unwrap();
    gpu.upload(start.positions(), start.velocities()).unwrap();
    plain.upload(start.positions(), start.velocities()).unwrap();
    let mut positions = start.positions().to_vec();
    let mut velocities = start.velocities().to_vec();
    // A repeller moved every frame, then taken away: the flock steps as the CPU does with it
    // where it was that frame.
    for frame in 0..4 {
        let points = if frame < 3 {
            let mut position = config.bounds.min + config.bounds.size() * 0.5;
            position[0] += 40.0 * frame as f32;
            vec![GpuPoint::Repeller {
                position,
                radius: 150.0,
                weight: 0.05,
            }]
        } else {
            Vec::new()
        };
        gpu.set_points(&points).unwrap();
        assert_eq!(gpu.point_count(), points.len());
        gpu.step(1.0 / 60.0).unwrap();
        let gameplay = Gameplay {
            species: &[],
            kinds: &[],
            hunts: &[],
            points: &points,
            ..Default::default()
        };
        (positions, velocities, _) =
            reference_step(&config, &gameplay, &positions, &velocities, 1.0 / 60.0);
    }
    let (gpu_positions, gpu_velocities) = gpu.read_back().unwrap();
    let space = Space::of(&config);
    let worst = gpu_velocities
        .iter()
        .zip(&velocities)
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0, f32::max);
    assert!(worst < 1e-3 * config.max_speed, "{worst}");
    let worst = gpu_positions
        .iter()
        .zip(&positions)
        .map(|(a, b)| space.delta(*a, *b).length())
        .fold(0.0, f32::max);
    assert!(worst < 1e-4 * world_size(&config), "{worst}");

    // One species with the flock's own rules, no hunts, no points: the gameplay pipeline
    // steps as the plain one does, bit for bit, both flocks from the same boids.
    gpu.upload(start.positions(), start.velocities()).unwrap();
    gpu.set_species(&[SpeciesSettings::from_config(&config)])
        .unwrap();
    for _ in 0..3 {
        gpu.step(1.0 / 60.0).unwrap();
        plain.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(gpu.read_back().unwrap(), plain.read_back().unwrap());
}

/// Every shape of the dimension, in the flock's world: in the plane a circle, a rectangle, a
/// rotated rectangle and a concave polygon; in space a sphere, a box, a rotated box and a
/// capsule.
fn every_shape() -> Vec<Shape> {
    let at = |x: f32, y: f32| {
        let mut point = Vector::ZERO;
        point[0] = x;
        point[1] = y;
        point
    };
    let half = |x: f32, y: f32| {
        let mut size = Vector::splat(60.0);
        size[0] = x;
        size[1] = y;
        size
    };
    #[cfg(not(flock_3d))]
    let (round, aligned, turned, last) = {
        let l_shape = flock_core::steering::Polygon::new([
            at(0.0, 0.0),
            at(160.0, 0.0),
            at(160.0, 60.0),
            at(60.0, 60.0),
            at(60.0, 140.0),
            at(0.0, 140.0),
        ])
        .unwrap()
        .placed(at(200.0, 100.0), at(0.3f32.cos(), 0.3f32.sin()));
        (
            Shape::Circle {
                centre: at(-350.0, 120.0),
                radius: 90.0,
            },
            Shape::Rect {
                centre: at(-100.0, -180.0),
                half_size: half(120.0, 50.0),
            },
            Shape::RotatedRect {
                centre: at(380.0, -150.0),
                half_size: half(140.0, 30.0),
                rotation: Rotation::from_angle(0.6),
            },
            Shape::Polygon(l_shape),
        )
    };
    #[cfg(flock_3d)]
    let (round, aligned, turned, last) = (
        Shape::Sphere {
            centre: at(-350.0, 120.0),
            radius: 120.0,
        },
        Shape::Cuboid {
            centre: at(-100.0, -180.0),
            half_size: half(120.0, 80.0),
        },
        Shape::OrientedCuboid {
            centre: at(380.0, -150.0),
            half_size: half(140.0, 60.0),
            rotation: Rotation::from_axis_angle(Vector::new(1.0, 2.0, 3.0).normalize(), 0.7),
        },
        Shape::Capsule {
            start: at(150.0, 50.0) - Vector::Z * 200.0,
            end: at(250.0, 200.0) + Vector::Z * 150.0,
            radius: 70.0,
        },
    );
    vec![round, aligned, turned, last]
}

#[test]
fn obstacles_of_every_shape_are_escaped_and_dodged_as_the_cpu_does() {
    let Some(mut gpu) = device_flock() else {
        return;
    };
    let shapes = every_shape();
    for (regime, scale) in FORCE_SCALES {
        let config = scaled_config(scale);
        let start = Flock::random(1500, &config, 25);
        let avoidance = ObstacleAvoidance {
            look_ahead: 160.0,
            clearance: 12.0,
            weight: 0.05,
        };
        // Each shape alone (its own escape and dodge), then all together (the nearest wins).
        let alone: Vec<Vec<Shape>> = shapes.iter().map(|shape| vec![shape.clone()]).collect();
        for (case, obstacles) in alone.iter().chain([&shapes]).enumerate() {
            let gameplay = Gameplay {
                obstacles,
                avoidance: Some(avoidance),
                ..Default::default()
            };
            let acted = compare_one_step(
                &mut gpu,
                config,
                &gameplay,
                &start,
                &format!("obstacles {case} ({} shapes), {regime}", obstacles.len()),
            );
            assert!(acted.escaped >= 5 && acted.dodged >= 5, "{case}: {acted:?}");
            if scale > 1.0 {
                assert_eq!(acted.below_limit, acted.steered, "{regime}: {acted:?}");
            }
        }
        // With species, hunts and points too, every behaviour in one sum.
        let species = three_species(&config, scale);
        let kinds = kinds_of(start.len(), 3);
        let points = four_points(&config);
        let hunts = [hunt(2, 1)];
        let gameplay = Gameplay {
            species: &species,
            kinds: &kinds,
            hunts: &hunts,
            points: &points,
            obstacles: &shapes,
            avoidance: Some(avoidance),
            containment: Some(pen()),
        };
        compare_one_step(
            &mut gpu,
            config,
            &gameplay,
            &start,
            &format!("everything, {regime}"),
        );
    }
}

/// A pen smaller than the world: in the plane a concave hexagon, in space a box.
fn pen() -> Containment {
    #[cfg(not(flock_3d))]
    let enclosure = Enclosure::Polygon(
        flock_core::steering::Polygon::new(
            [
                (-500.0, -280.0),
                (450.0, -300.0),
                (520.0, 250.0),
                (0.0, 60.0),
                (-300.0, 290.0),
                (-560.0, 100.0),
            ]
            .map(|(x, y)| Vector::new(x, y)),
        )
        .unwrap(),
    );
    #[cfg(flock_3d)]
    let enclosure = Enclosure::Cuboid {
        centre: Vector::new(30.0, -20.0, 10.0),
        half_size: Vector::new(480.0, 260.0, 250.0),
    };
    Containment {
        enclosure,
        look_ahead: 90.0,
        weight: 0.04,
    }
}

#[test]
fn an_enclosure_turns_boids_back_and_brings_the_ones_outside_in_as_the_cpu_does() {
    let Some(mut gpu) = device_flock() else {
        return;
    };
    for (regime, scale) in FORCE_SCALES {
        let config = scaled_config(scale);
        let start = Flock::random(1500, &config, 26);
        let gameplay = Gameplay {
            containment: Some(pen()),
            ..Default::default()
        };
        let acted = compare_one_step(
            &mut gpu,
            config,
            &gameplay,
            &start,
            &format!("an enclosure, {regime}"),
        );
        assert!(
            acted.came_back >= 50 && acted.turned_back >= 50,
            "{regime}: {acted:?}"
        );
        if scale > 1.0 {
            assert_eq!(acted.below_limit, acted.steered, "{regime}: {acted:?}");
        }
    }
}
