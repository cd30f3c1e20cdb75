//! Queries answered on the device, against the boids read back: how many are within a radius
//! (across the seams when the world wraps) and the nearest few, in distance then index order;
//! empty flocks, ties, radii of zero and of everything; bad queries refused before the device.
//! `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use std::time::{Duration, Instant};

use common::{device, gpu_flock};
use flock_core::{EdgeMode, Flock, FlockConfig, Space, Vector};
use flock_gpu::{DeviceFlock, GpuError, MAX_NEAREST, NearQuery, QueryResult};

/// Polls until the query in flight answers (a minute at most).
fn answer(flock: &mut DeviceFlock) -> QueryResult {
    let started = Instant::now();
    loop {
        if let Some(result) = flock.poll_query() {
            return result.expect("the query answers");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no answer in a minute"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The answer computed from the boids read back.
fn expected(positions: &[Vector], config: &FlockConfig, query: &NearQuery) -> QueryResult {
    let space = Space::of(config);
    let mut within: Vec<(f32, u32)> = (0..positions.len() as u32)
        .map(|boid| {
            let offset = space.delta(query.point, positions[boid as usize]);
            (offset.length_squared(), boid)
        })
        .filter(|&(distance_squared, _)| distance_squared < query.radius * query.radius)
        .collect();
    within.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    QueryResult {
        count: within.len() as u32,
        nearest: within
            .iter()
            .take(query.nearest)
            .map(|&(distance_squared, boid)| (boid, distance_squared.sqrt()))
            .collect(),
    }
}

/// The boids a result names, nearest first.
fn indices(result: &QueryResult) -> Vec<u32> {
    result.nearest.iter().map(|&(boid, _)| boid).collect()
}

fn check(flock: &mut DeviceFlock, query: NearQuery, case: &str) -> QueryResult {
    flock.query_near(query).unwrap();
    let got = answer(flock);
    let (positions, _) = flock.read_back().unwrap();
    let want = expected(&positions, flock.config(), &query);
    assert_eq!(got.count, want.count, "{case}: count");
    assert_eq!(indices(&got), indices(&want), "{case}: nearest");
    for (&(_, a), &(_, b)) in got.nearest.iter().zip(&want.nearest) {
        assert!(
            (a - b).abs() <= 1e-4 * b.max(1.0),
            "{case}: {a} against {b}"
        );
    }
    got
}

#[test]
fn counts_and_nearest_boids_match_the_boids_read_back() {
    for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
        let config = FlockConfig {
            edges,
            ..FlockConfig::default()
        };
        let start = Flock::random(5000, &config, 41);
        let Some(mut flock) = gpu_flock(config, start.positions(), start.velocities()) else {
            return;
        };
        for _ in 0..3 {
            flock.step(1.0 / 60.0).unwrap();
        }
        let corner = config.bounds.min + Vector::splat(5.0);
        let centre = config.bounds.min + config.bounds.size() * 0.5;
        let queries = [
            (centre, 80.0, 16),
            (centre, 200.0, 5),
            // At a corner: in a wrapping world the boids across the seams count.
            (corner, 60.0, MAX_NEAREST),
            (corner, 60.0, 0),
            (centre, 0.0, 16),
            (centre, FlockConfig::MAX_MAGNITUDE, 16),
        ];
        for (point, radius, nearest) in queries {
            let query = NearQuery {
                point,
                radius,
                nearest,
            };
            let case = format!("{edges:?}, radius {radius}, {nearest} nearest");
            let got = check(&mut flock, query, &case);
            if radius == FlockConfig::MAX_MAGNITUDE {
                assert_eq!(got.count, 5000, "{case}");
            }
            assert_eq!(got.nearest.len(), nearest.min(got.count as usize), "{case}");
            if radius >= 200.0 {
                assert!(got.count > MAX_NEAREST as u32, "{case}: {}", got.count);
            }
        }
    }
}

#[test]
fn ties_fewer_boids_than_asked_and_an_empty_flock() {
    let config = FlockConfig::default();
    // Ten boids on one point, two more farther out.
    let mut positions = vec![Vector::ZERO; 10];
    positions.push(Vector::splat(3.0));
    positions.push(Vector::splat(-7.0));
    let velocities = vec![Vector::ZERO; positions.len()];
    let Some(mut flock) = gpu_flock(config, &positions, &velocities) else {
        return;
    };
    let query = NearQuery {
        point: Vector::ZERO,
        radius: 20.0,
        nearest: 16,
    };
    let got = check(&mut flock, query, "ties");
    assert_eq!(got.count, 12);
    let order: Vec<u32> = got.nearest.iter().map(|&(boid, _)| boid).collect();
    assert_eq!(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    flock.upload(&[], &[]).unwrap();
    let got = check(&mut flock, query, "an empty flock");
    assert_eq!(
        got,
        QueryResult {
            count: 0,
            nearest: Vec::new()
        }
    );
}

#[test]
fn bad_queries_are_refused_and_one_is_in_flight_at_a_time() {
    let Some((device, queue)) = device() else {
        return;
    };
    let mut flock = DeviceFlock::new(device, queue, FlockConfig::default(), 0).unwrap();
    let start = Flock::random(100, flock.config(), 42);
    flock.upload(start.positions(), start.velocities()).unwrap();
    assert!(flock.poll_query().is_none(), "nothing in flight");
    let good = NearQuery {
        point: Vector::ZERO,
        radius: 100.0,
        nearest: 4,
    };
    let bad = [
        ("point", Vector::splat(f32::NAN), 100.0),
        ("point", Vector::splat(f32::INFINITY), 100.0),
        ("point", Vector::splat(1e30), 100.0),
        ("radius", Vector::ZERO, -1.0),
        ("radius", Vector::ZERO, f32::NAN),
        ("radius", Vector::ZERO, 1e12),
    ];
    for (field, point, radius) in bad {
        let query = NearQuery {
            point,
            radius,
            ..good
        };
        assert!(matches!(
            flock.query_near(query),
            Err(GpuError::Query(error)) if error.field == field
        ));
    }
    for nearest in [MAX_NEAREST + 1, 1000, usize::MAX] {
        assert_eq!(
            flock.query_near(NearQuery { nearest, ..good }),
            Err(GpuError::TooMany {
                what: "nearest boids",
                requested: nearest,
                limit: MAX_NEAREST
            })
        );
    }
    assert!(flock.poll_query().is_none(), "nothing submitted");
    flock.query_near(good).unwrap();
    assert_eq!(flock.query_near(good), Err(GpuError::QueryInFlight));
    let first = answer(&mut flock);
    assert!(flock.poll_query().is_none(), "answered once");
    // The next query, after a step, sees the boids where they are now.
    flock.step(1.0).unwrap();
    let second = check(&mut flock, good, "after a step");
    assert_ne!(first, second);
}

#[test]
fn flocks_sharing_compiled_pipelines_answer_their_own_queries() {
    let Some((device, queue)) = device() else {
        return;
    };
    let config = FlockConfig::default();
    let compiled = std::sync::Arc::new(flock_gpu::FlockPipelines::new(device).unwrap());
    let mut flocks = [3, 4].map(|seed| {
        let start = Flock::random(2000, &config, seed);
        let shared = std::sync::Arc::clone(&compiled);
        let mut flock = DeviceFlock::with_pipelines(shared, queue, config, 0).unwrap();
        flock.upload(start.positions(), start.velocities()).unwrap();
        flock
    });
    let query = NearQuery {
        point: config.bounds.min + config.bounds.size() * 0.5,
        radius: 120.0,
        nearest: 8,
    };
    // Both in flight at once, on the one set of query passes.
    for flock in &mut flocks {
        flock.query_near(query).unwrap();
    }
    let answers = flocks.each_mut().map(answer);
    for (flock, got) in flocks.iter().zip(&answers) {
        let (positions, _) = flock.read_back().unwrap();
        let want = expected(&positions, &config, &query);
        assert_eq!(got.count, want.count);
        assert_eq!(indices(got), indices(&want));
    }
    assert_ne!(
        answers[0].nearest, answers[1].nearest,
        "two different flocks"
    );
}
