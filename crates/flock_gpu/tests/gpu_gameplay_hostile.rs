//! The gameplay calls given what a caller might hand them: no species, too many species,
//! hunts, points, obstacles, polygon or enclosure vertices, enclosures that are no region, species indices past the species set, values that are not finite or are
//! huge, contradictory rules. Each is a clear error that changes nothing (the flock keeps its
//! species, hunts, points and boids, and steps on finite and inside its bounds); extreme but
//! valid values step finite. `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::{all_finite, device};
use flock_core::steering::{Enclosure, Rotation, Shape};
use flock_core::{Flock, FlockConfig, Neighbours, SpeedMode, Vector};
use flock_gpu::{
    Containment, DeviceFlock, GpuError, GpuHunt, GpuPoint, MAX_HUNTS, MAX_OBSTACLES, MAX_POINTS,
    MAX_SPECIES, ObstacleAvoidance, SpeciesSettings, check_config,
};

const BOIDS: usize = 300;

/// A flock of [`BOIDS`] boids in three species with one hunt and one point.
fn flock_in_play() -> Option<(
    DeviceFlock,
    Vec<SpeciesSettings>,
    Vec<GpuHunt>,
    Vec<GpuPoint>,
)> {
    let (device, queue) = device()?;
    let config = FlockConfig::default();
    let start = Flock::random(BOIDS, &config, 31);
    let mut flock = DeviceFlock::new(device, queue, config, BOIDS).unwrap();
    flock.upload(start.positions(), start.velocities()).unwrap();
    let species = vec![SpeciesSettings::from_config(&config); 3];
    flock.set_species(&species).unwrap();
    let kinds: Vec<u32> = (0..BOIDS as u32).map(|boid| boid % 3).collect();
    flock.upload_species(&kinds).unwrap();
    let hunts = vec![hunt(1, 0)];
    flock.set_hunts(&hunts).unwrap();
    let points = vec![repeller(Vector::ZERO)];
    flock.set_points(&points).unwrap();
    Some((flock, species, hunts, points))
}

fn hunt(predator: u32, prey: u32) -> GpuHunt {
    GpuHunt {
        predator,
        prey,
        flee_radius: 60.0,
        flee_weight: 0.5,
        chase_radius: 80.0,
        chase_weight: 0.5,
        max_look_ahead: 1.0,
    }
}

fn repeller(position: Vector) -> GpuPoint {
    GpuPoint::Repeller {
        position,
        radius: 100.0,
        weight: 1.0,
    }
}

/// The flock still holds its species, hunts, points and boids, and steps finite and inside
/// its bounds.
fn unchanged(
    flock: &mut DeviceFlock,
    (species, hunts, points): (&[SpeciesSettings], &[GpuHunt], &[GpuPoint]),
    case: &str,
) {
    assert_eq!(flock.species(), species, "{case}");
    assert_eq!(flock.hunts(), hunts, "{case}");
    assert_eq!(flock.point_count(), points.len(), "{case}");
    assert_eq!(flock.len(), BOIDS, "{case}");
    for _ in 0..3 {
        flock.step(1.0 / 60.0).unwrap();
    }
    let (positions, velocities) = flock.read_back().unwrap();
    assert_eq!(positions.len(), BOIDS, "{case}");
    assert!(all_finite(&positions) && all_finite(&velocities), "{case}");
    let bounds = flock.config().bounds;
    assert!(positions.iter().all(|p| bounds.contains(*p)), "{case}");
}

#[test]
fn no_species_too_many_and_invalid_rules_are_refused() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let base = SpeciesSettings::from_config(flock.config());
    assert_eq!(flock.set_species(&[]), Err(GpuError::NoSpecies));
    for count in [MAX_SPECIES + 1, 1000] {
        let error = flock.set_species(&vec![base; count]).unwrap_err();
        assert_eq!(
            error,
            GpuError::TooMany {
                what: "species",
                requested: count,
                limit: MAX_SPECIES
            }
        );
        assert!(error.to_string().contains("at most 8"), "{error}");
    }
    let invalid = [
        (
            "max_speed",
            SpeciesSettings {
                max_speed: f32::NAN,
                ..base
            },
        ),
        (
            "max_speed",
            SpeciesSettings {
                max_speed: -1.0,
                ..base
            },
        ),
        (
            "max_force",
            SpeciesSettings {
                max_force: 0.0,
                ..base
            },
        ),
        (
            "max_force",
            SpeciesSettings {
                max_force: f32::INFINITY,
                ..base
            },
        ),
        (
            "cohesion_radius",
            SpeciesSettings {
                cohesion_radius: 1e30,
                ..base
            },
        ),
        (
            "separation_radius",
            SpeciesSettings {
                separation_radius: -5.0,
                ..base
            },
        ),
        (
            "weights.alignment",
            SpeciesSettings {
                weights: flock_core::RuleWeights {
                    alignment: f32::NAN,
                    ..base.weights
                },
                ..base
            },
        ),
        (
            "weights.cohesion",
            SpeciesSettings {
                weights: flock_core::RuleWeights {
                    cohesion: 1e20,
                    ..base.weights
                },
                ..base
            },
        ),
    ];
    for (field, bad) in invalid {
        let list = [base, base, bad];
        let error = flock.set_species(&list).unwrap_err();
        assert!(
            matches!(&error, GpuError::Species { index: 2, error } if error.field == field),
            "{field}: {error}"
        );
        assert!(error.to_string().starts_with("species 2:"), "{error}");
        unchanged(
            &mut flock,
            (&species, &hunts, &points),
            &format!("bad {field}"),
        );
    }
    // Contradictory: a species slower than the flock's minimum speed, and settings that
    // would make a species so.
    let mut clamped = *flock.config();
    clamped.speed_mode = SpeedMode::Clamp { min_speed: 60.0 };
    flock.set_config(clamped).unwrap();
    let slow = SpeciesSettings {
        max_speed: 30.0,
        ..base
    };
    assert!(matches!(
        flock.set_species(&[base, slow, base]),
        Err(GpuError::Species { index: 1, .. })
    ));
    let slower = SpeciesSettings {
        max_speed: 80.0,
        ..base
    };
    flock.set_species(&[base, slower, base]).unwrap();
    let faster_minimum = FlockConfig {
        speed_mode: SpeedMode::Clamp { min_speed: 100.0 },
        ..clamped
    };
    assert!(matches!(
        flock.set_config(faster_minimum),
        Err(GpuError::Species { index: 1, .. })
    ));
    assert_eq!(*flock.config(), clamped);
    flock.set_species(&species).unwrap();
    unchanged(&mut flock, (&species, &hunts, &points), "contradictions");
}

#[test]
fn species_indices_past_the_species_set_are_refused_before_the_device() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let mut kinds: Vec<u32> = vec![0; BOIDS];
    for bad in [3, MAX_SPECIES as u32, u32::MAX] {
        kinds[17] = bad;
        assert_eq!(
            flock.upload_species(&kinds),
            Err(GpuError::SpeciesOutOfRange {
                boid: 17,
                species: bad,
                count: 3
            })
        );
    }
    for length in [0, BOIDS - 1, BOIDS + 1] {
        assert_eq!(
            flock.upload_species(&vec![0; length]),
            Err(GpuError::SpeciesLengthMismatch {
                boids: BOIDS,
                species: length
            })
        );
    }
    let more = Flock::random(10, flock.config(), 32);
    let error = flock
        .append_with_species(more.positions(), more.velocities(), &[7; 10])
        .unwrap_err();
    assert!(
        error.to_string().contains("species 7") && error.to_string().contains("3 species"),
        "{error}"
    );
    assert!(matches!(
        flock.append_with_species(more.positions(), more.velocities(), &[0; 9]),
        Err(GpuError::SpeciesLengthMismatch { .. })
    ));
    // Fewer species than the boids name.
    assert_eq!(
        flock.set_species(&species[..2]),
        Err(GpuError::SpeciesInUse {
            highest: 2,
            count: 2
        })
    );
    unchanged(&mut flock, (&species, &hunts, &points), "bad indices");
    // Appended boids of valid species take part.
    flock
        .append_with_species(more.positions(), more.velocities(), &[2; 10])
        .unwrap();
    assert_eq!(flock.len(), BOIDS + 10);
    // Without species, any index past 0 is out of range.
    let (device, queue) = device().unwrap();
    let mut bare = DeviceFlock::new(device, queue, FlockConfig::default(), 0).unwrap();
    bare.upload(more.positions(), more.velocities()).unwrap();
    assert!(matches!(
        bare.upload_species(&[1; 10]),
        Err(GpuError::SpeciesOutOfRange { count: 0, .. })
    ));
    // An empty flock takes an empty list.
    bare.upload(&[], &[]).unwrap();
    bare.set_species(&species).unwrap();
    bare.upload_species(&[]).unwrap();
    bare.step(1.0 / 60.0).unwrap();
}

#[test]
fn bad_hunts_are_refused_whole() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let good = hunt(0, 1);
    let mut bad: Vec<(&str, GpuHunt)> = vec![
        ("predator", hunt(3, 0)),
        ("prey", hunt(0, u32::MAX)),
        ("prey", hunt(2, 2)),
        ("prey", good),
    ];
    for (field, value) in [
        ("flee_radius", f32::NAN),
        ("flee_radius", -1.0),
        ("chase_radius", f32::INFINITY),
        ("chase_radius", 1e12),
        ("max_look_ahead", f32::NEG_INFINITY),
        ("flee_weight", f32::NAN),
        ("chase_weight", 1e7),
    ] {
        let mut hunt = hunt(2, 0);
        match field {
            "flee_radius" => hunt.flee_radius = value,
            "chase_radius" => hunt.chase_radius = value,
            "max_look_ahead" => hunt.max_look_ahead = value,
            "flee_weight" => hunt.flee_weight = value,
            _ => hunt.chase_weight = value,
        }
        bad.push((field, hunt));
    }
    for (field, bad) in bad {
        // The bad hunt after a good one: refused whole, naming the bad one.
        let error = flock.set_hunts(&[good, bad]).unwrap_err();
        assert!(
            matches!(&error, GpuError::Hunt { index: 1, error } if error.field == field),
            "{field}: {error}"
        );
        assert!(error.to_string().starts_with("hunt 1:"), "{error}");
    }
    let error = flock.set_hunts(&vec![good; MAX_HUNTS + 1]).unwrap_err();
    assert!(
        matches!(error, GpuError::TooMany { what: "hunts", .. }),
        "{error}"
    );
    unchanged(&mut flock, (&species, &hunts, &points), "bad hunts");
    // No hunts is fine: it stops them.
    flock.set_hunts(&[]).unwrap();
    unchanged(&mut flock, (&species, &[], &points), "no hunts");
}

#[test]
fn more_points_than_the_buffer_holds_and_bad_points_are_refused_whole() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    for count in [MAX_POINTS + 1, 10_000] {
        let error = flock
            .set_points(&vec![repeller(Vector::ZERO); count])
            .unwrap_err();
        assert_eq!(
            error,
            GpuError::TooMany {
                what: "points",
                requested: count,
                limit: MAX_POINTS
            }
        );
        assert!(error.to_string().contains("at most 64"), "{error}");
    }
    let bad = [
        ("position", repeller(Vector::splat(f32::NAN))),
        ("position", repeller(Vector::splat(1e30))),
        ("position", repeller(Vector::splat(f32::INFINITY))),
        (
            "radius",
            GpuPoint::Repeller {
                position: Vector::ZERO,
                radius: -1.0,
                weight: 1.0,
            },
        ),
        (
            "radius",
            GpuPoint::Attractor {
                position: Vector::ZERO,
                slow_radius: f32::INFINITY,
                weight: 1.0,
            },
        ),
        (
            "weight",
            GpuPoint::Attractor {
                position: Vector::ZERO,
                slow_radius: 0.0,
                weight: f32::NAN,
            },
        ),
        (
            "velocity",
            GpuPoint::Predator {
                position: Vector::ZERO,
                velocity: Vector::splat(f32::NEG_INFINITY),
                radius: 10.0,
                weight: 1.0,
                max_look_ahead: 1.0,
            },
        ),
        (
            "max_look_ahead",
            GpuPoint::Predator {
                position: Vector::ZERO,
                velocity: Vector::ZERO,
                radius: 10.0,
                weight: 1.0,
                max_look_ahead: f32::NAN,
            },
        ),
    ];
    for (field, bad) in bad {
        let error = flock
            .set_points(&[repeller(Vector::ZERO), bad])
            .unwrap_err();
        assert!(
            matches!(&error, GpuError::Point { index: 1, error } if error.field == field),
            "{field}: {error}"
        );
    }
    unchanged(&mut flock, (&species, &hunts, &points), "bad points");
    flock.set_points(&[]).unwrap();
    unchanged(&mut flock, (&species, &hunts, &[]), "no points");
}

#[test]
fn extreme_but_valid_gameplay_steps_finite_with_no_boid_lost() {
    let Some((mut flock, _, _, _)) = flock_in_play() else {
        return;
    };
    let far = Vector::splat(FlockConfig::MAX_MAGNITUDE);
    let points = [
        GpuPoint::Attractor {
            position: far,
            slow_radius: FlockConfig::MAX_MAGNITUDE,
            weight: FlockConfig::MAX_WEIGHT,
        },
        GpuPoint::Repeller {
            position: Vector::ZERO,
            radius: FlockConfig::MAX_MAGNITUDE,
            weight: -FlockConfig::MAX_WEIGHT,
        },
        GpuPoint::Predator {
            position: -far,
            velocity: far,
            radius: FlockConfig::MAX_MAGNITUDE,
            weight: FlockConfig::MAX_WEIGHT,
            max_look_ahead: FlockConfig::MAX_MAGNITUDE,
        },
    ];
    flock.set_points(&points).unwrap();
    // Hunts that reach across the world: the grid becomes one cell.
    let huge = GpuHunt {
        flee_radius: FlockConfig::MAX_MAGNITUDE,
        chase_radius: FlockConfig::MAX_MAGNITUDE,
        flee_weight: FlockConfig::MAX_WEIGHT,
        chase_weight: -FlockConfig::MAX_WEIGHT,
        max_look_ahead: FlockConfig::MAX_MAGNITUDE,
        ..hunt(0, 1)
    };
    flock.set_hunts(&[huge, hunt(2, 1)]).unwrap();
    // Every boid on one point: predators and prey at distance zero.
    let positions = vec![Vector::ZERO; BOIDS];
    let velocities = vec![Vector::ZERO; BOIDS];
    flock.upload(&positions, &velocities).unwrap();
    let kinds: Vec<u32> = (0..BOIDS as u32).map(|boid| boid % 3).collect();
    flock.upload_species(&kinds).unwrap();
    let species = flock.species().to_vec();
    let hunts = flock.hunts().to_vec();
    unchanged(&mut flock, (&species, &hunts, &points), "extremes");
}

#[test]
fn topological_neighbours_are_refused_by_name() {
    let nearest = FlockConfig {
        neighbours: Neighbours::Nearest { k: 7 },
        ..FlockConfig::default()
    };
    let error = check_config(&nearest).unwrap_err();
    assert_eq!(error.field, "neighbours");
    let message = error.to_string();
    assert!(
        message.contains("Neighbours::Metric") && message.contains("nearest-k"),
        "{message}"
    );
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    assert!(matches!(
        flock.set_config(nearest),
        Err(GpuError::Config(error)) if error.field == "neighbours"
    ));
    unchanged(&mut flock, (&species, &hunts, &points), "topological");
}

const AVOIDANCE: ObstacleAvoidance = ObstacleAvoidance {
    look_ahead: 100.0,
    clearance: 5.0,
    weight: 1.0,
};

fn ball(centre: Vector, radius: f32) -> Shape {
    #[cfg(not(flock_3d))]
    return Shape::Circle { centre, radius };
    #[cfg(flock_3d)]
    return Shape::Sphere { centre, radius };
}

fn aligned_box(centre: Vector, half_size: Vector) -> Shape {
    #[cfg(not(flock_3d))]
    return Shape::Rect { centre, half_size };
    #[cfg(flock_3d)]
    return Shape::Cuboid { centre, half_size };
}

/// Shapes that are not shapes, or lie or reach too far, in this dimension.
fn bad_shapes() -> Vec<(&'static str, Shape)> {
    let mut bad = vec![
        ("not a shape", ball(Vector::splat(f32::NAN), 10.0)),
        ("not a shape", ball(Vector::ZERO, -1.0)),
        (
            "not a shape",
            aligned_box(Vector::ZERO, Vector::splat(f32::INFINITY)),
        ),
        ("beyond 1e9", ball(Vector::splat(1e30), 10.0)),
        ("beyond 1e9", aligned_box(Vector::ZERO, Vector::splat(1e20))),
    ];
    #[cfg(not(flock_3d))]
    bad.extend([
        (
            "cannot be inverted",
            Shape::RotatedRect {
                centre: Vector::ZERO,
                half_size: Vector::ONE,
                rotation: Rotation::ZERO,
            },
        ),
        (
            "not a shape",
            Shape::RotatedRect {
                centre: Vector::ZERO,
                half_size: Vector::ONE,
                rotation: Rotation::from_cols(Vector::NAN, Vector::Y),
            },
        ),
    ]);
    #[cfg(flock_3d)]
    bad.extend([
        (
            "not a shape",
            Shape::OrientedCuboid {
                centre: Vector::ZERO,
                half_size: Vector::ONE,
                rotation: Rotation::from_xyzw(1.0, 2.0, 3.0, 4.0),
            },
        ),
        (
            "not a shape",
            Shape::Capsule {
                start: Vector::ZERO,
                end: Vector::splat(f32::NAN),
                radius: 1.0,
            },
        ),
    ]);
    bad
}

#[test]
fn more_obstacles_than_the_buffer_holds_and_bad_obstacles_are_refused_whole() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let good = vec![ball(Vector::ZERO, 50.0)];
    flock.set_obstacles(&good, AVOIDANCE).unwrap();
    for count in [MAX_OBSTACLES + 1, 10_000] {
        let error = flock
            .set_obstacles(&vec![ball(Vector::ZERO, 1.0); count], AVOIDANCE)
            .unwrap_err();
        assert_eq!(
            error,
            GpuError::TooMany {
                what: "obstacles",
                requested: count,
                limit: MAX_OBSTACLES
            }
        );
    }
    #[cfg(not(flock_3d))]
    {
        // Three polygons of 100 vertices: more vertices than the table holds.
        let round = flock_core::steering::Polygon::new((0..100).map(|i| {
            let angle = i as f32 / 100.0 * std::f32::consts::TAU;
            Vector::new(angle.cos(), angle.sin()) * 50.0
        }))
        .unwrap();
        let error = flock
            .set_obstacles(&vec![Shape::Polygon(round); 3], AVOIDANCE)
            .unwrap_err();
        assert_eq!(
            error,
            GpuError::TooMany {
                what: "polygon vertices",
                requested: 300,
                limit: flock_gpu::MAX_POLYGON_VERTICES
            }
        );
    }
    for (reason, bad) in bad_shapes() {
        let error = flock
            .set_obstacles(&[ball(Vector::ZERO, 1.0), bad], AVOIDANCE)
            .unwrap_err();
        assert!(
            matches!(error, GpuError::Obstacle { index: 1, .. }),
            "{reason}: {error}"
        );
        assert!(error.to_string().contains(reason), "{error}");
    }
    let bad_avoidance = [
        ("look_ahead", 0.0, 5.0, 1.0),
        ("look_ahead", f32::NAN, 5.0, 1.0),
        ("look_ahead", -1.0, 5.0, 1.0),
        ("look_ahead", 1e12, 5.0, 1.0),
        ("clearance", 100.0, -1.0, 1.0),
        ("clearance", 100.0, f32::INFINITY, 1.0),
        ("weight", 100.0, 5.0, f32::NAN),
        ("weight", 100.0, 5.0, 1e7),
    ];
    for (field, look_ahead, clearance, weight) in bad_avoidance {
        let avoidance = ObstacleAvoidance {
            look_ahead,
            clearance,
            weight,
        };
        assert!(matches!(
            flock.set_obstacles(&good, avoidance),
            Err(GpuError::Avoidance(error)) if error.field == field
        ));
    }
    assert_eq!(flock.obstacle_count(), 1);
    unchanged(&mut flock, (&species, &hunts, &points), "bad obstacles");
    flock.set_obstacles(&[], AVOIDANCE).unwrap();
    assert_eq!(flock.obstacle_count(), 0);
}

#[test]
fn degenerate_and_world_sized_obstacles_step_finite_with_no_boid_lost() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let mut shapes = vec![
        // Every boid inside: each escapes.
        ball(Vector::ZERO, FlockConfig::MAX_MAGNITUDE),
        ball(Vector::ZERO, 0.0),
        aligned_box(Vector::ZERO, Vector::ZERO),
    ];
    #[cfg(flock_3d)]
    shapes.push(Shape::Capsule {
        start: Vector::ZERO,
        end: Vector::ZERO,
        radius: 30.0,
    });
    #[cfg(not(flock_3d))]
    shapes.push(Shape::RotatedRect {
        centre: Vector::ZERO,
        half_size: Vector::splat(30.0),
        rotation: Rotation::from_angle(1.0),
    });
    let extreme = ObstacleAvoidance {
        look_ahead: FlockConfig::MAX_MAGNITUDE,
        clearance: FlockConfig::MAX_MAGNITUDE,
        weight: FlockConfig::MAX_WEIGHT,
    };
    for first in 0..shapes.len() {
        // Each first in turn: the first that holds a boid is the one it escapes.
        shapes.rotate_left(1);
        flock.set_obstacles(&shapes, extreme).unwrap();
        unchanged(
            &mut flock,
            (&species, &hunts, &points),
            &format!("order {first}"),
        );
    }
    // Boids at rest on the obstacles' centre: no heading, no direction out but the fallback.
    let positions = vec![Vector::ZERO; BOIDS];
    let velocities = vec![Vector::ZERO; BOIDS];
    flock.upload(&positions, &velocities).unwrap();
    let kinds: Vec<u32> = (0..BOIDS as u32).map(|boid| boid % 3).collect();
    flock.upload_species(&kinds).unwrap();
    unchanged(&mut flock, (&species, &hunts, &points), "at the centre");
}

/// A pen of this size around the origin: a square in the plane, a cube in space.
fn pen(half: f32) -> Enclosure {
    #[cfg(not(flock_3d))]
    return Enclosure::Polygon(
        flock_core::steering::Polygon::new(
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| Vector::new(x, y) * half),
        )
        .unwrap(),
    );
    #[cfg(flock_3d)]
    return Enclosure::Cuboid {
        centre: Vector::ZERO,
        half_size: Vector::splat(half),
    };
}

/// Enclosures that are not regions: boxes of no size or not finite in space (in the plane,
/// `Polygon::new` makes no such polygon).
fn pens_that_are_no_region() -> Vec<(&'static str, Enclosure)> {
    #[cfg(not(flock_3d))]
    return Vec::new();
    #[cfg(flock_3d)]
    return vec![
        ("not a region", pen(0.0)),
        ("not a region", pen(-5.0)),
        (
            "not a region",
            Enclosure::Cuboid {
                centre: Vector::splat(f32::NAN),
                half_size: Vector::ONE,
            },
        ),
    ];
}

#[test]
fn bad_enclosures_and_containment_settings_are_refused() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let good = Containment {
        enclosure: pen(200.0),
        look_ahead: 50.0,
        weight: 1.0,
    };
    flock.set_containment(Some(&good)).unwrap();
    #[cfg(not(flock_3d))]
    {
        let many = flock_core::steering::Polygon::new((0..65).map(|i| {
            let angle = i as f32 / 65.0 * std::f32::consts::TAU;
            Vector::new(angle.cos(), angle.sin()) * 300.0
        }))
        .unwrap();
        let error = flock
            .set_containment(Some(&Containment {
                enclosure: Enclosure::Polygon(many),
                ..good.clone()
            }))
            .unwrap_err();
        assert_eq!(
            error,
            GpuError::TooMany {
                what: "enclosure vertices",
                requested: 65,
                limit: flock_gpu::MAX_ENCLOSURE_VERTICES
            }
        );
    }
    let bad_regions = [("beyond 1e9", pen(1e15))]
        .into_iter()
        .chain(pens_that_are_no_region());
    for (reason, enclosure) in bad_regions {
        let error = flock
            .set_containment(Some(&Containment {
                enclosure,
                ..good.clone()
            }))
            .unwrap_err();
        assert!(
            matches!(error, GpuError::Enclosure(_)) && error.to_string().contains(reason),
            "{reason}: {error}"
        );
    }
    for (field, look_ahead, weight) in [
        ("look_ahead", 0.0, 1.0),
        ("look_ahead", -3.0, 1.0),
        ("look_ahead", f32::NAN, 1.0),
        ("look_ahead", 1e12, 1.0),
        ("weight", 50.0, f32::INFINITY),
        ("weight", 50.0, -1e9),
    ] {
        let bad = Containment {
            look_ahead,
            weight,
            ..good.clone()
        };
        assert!(matches!(
            flock.set_containment(Some(&bad)),
            Err(GpuError::Containment(error)) if error.field == field
        ));
    }
    assert!(flock.is_contained());
    unchanged(&mut flock, (&species, &hunts, &points), "bad containment");
    flock.set_containment(None).unwrap();
    assert!(!flock.is_contained());
}

#[test]
fn an_enclosure_the_size_of_everything_or_holding_no_boid_steps_finite() {
    let Some((mut flock, species, hunts, points)) = flock_in_play() else {
        return;
    };
    let cases = [
        (
            pen(FlockConfig::MAX_MAGNITUDE / 2.0),
            FlockConfig::MAX_MAGNITUDE,
        ),
        // Far smaller than the flock: every boid outside, heading back in.
        (pen(1.0), 1.0),
    ];
    for (enclosure, look_ahead) in cases {
        let containment = Containment {
            enclosure,
            look_ahead,
            weight: FlockConfig::MAX_WEIGHT,
        };
        flock.set_containment(Some(&containment)).unwrap();
        unchanged(
            &mut flock,
            (&species, &hunts, &points),
            &format!("look-ahead {look_ahead}"),
        );
    }
}
