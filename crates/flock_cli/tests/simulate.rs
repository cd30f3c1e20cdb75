//! `flock simulate` as a user runs it: the real binary, real files.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bevy_flock::FlockSettings;
use common::{QUICK_BENCH, fails_cleanly, flock, names, scratch, stderr, stdout};

/// `flock simulate` from a settings file and a boids file, with `more` options after them.
fn simulate_files(settings: &Path, boids: &Path, more: &[&str]) -> Output {
    let files = [
        "simulate",
        "--settings",
        settings.to_str().unwrap(),
        "--input",
        boids.to_str().unwrap(),
    ];
    flock(&[&files[..], more].concat())
}

#[test]
fn writes_every_kth_step_of_every_boid() {
    let csv = stdout(&flock(&[
        "simulate", "--count", "20", "--seed", "3", "--steps", "10", "--every", "5",
    ]));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("step,id,x,y,vx,vy"));
    let rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
    assert_eq!(rows.len(), 3 * 20, "steps 0, 5 and 10");
    for (row, expected_step) in rows.iter().zip([0, 5, 10].iter().flat_map(|s| [*s; 20])) {
        assert_eq!(row.len(), 6);
        assert_eq!(row[0].parse::<u64>().unwrap(), expected_step);
        assert!(
            row[2..]
                .iter()
                .all(|v| v.parse::<f32>().unwrap().is_finite())
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_output_whatever_the_threads() {
    let args = |threads: &'static str| {
        [
            "simulate",
            "--count",
            "3000",
            "--seed",
            "9",
            "--steps",
            "30",
            "--every",
            "30",
            "--threads",
            threads,
        ]
    };
    let one = stdout(&flock(&args("1")));
    let two = stdout(&flock(&args("2")));
    assert_eq!(one, two, "bit-identical with one thread and two");
    assert_ne!(
        one,
        stdout(&flock(&[
            "simulate", "--count", "3000", "--seed", "10", "--steps", "30", "--every", "30",
        ]))
    );
}

#[test]
fn reads_boids_and_settings_and_writes_a_file() {
    let settings = FlockSettings {
        max_boids: 50,
        ..FlockSettings::default()
    };
    let dir = scratch("files");
    let boids = dir.write(
        "boids.csv",
        "x,y,vx,vy\n0,0,10,0\n20,0,0,10\n\n-20,5,0,-10\n",
    );
    let ron_path = dir.write("settings.ron", ron::to_string(&settings).unwrap());
    let out = dir.join("out.csv");
    stdout(&simulate_files(
        &ron_path,
        &boids,
        &["--steps", "4", "--output", out.to_str().unwrap()],
    ));
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 5 * 3);
    assert_eq!(lines[1], "0,0,0,0,10,0");
    assert_eq!(lines[3], "0,2,-20,5,0,-10");
    assert!(lines.last().unwrap().starts_with("4,2,"));
    // Nothing else was left beside the output.
    assert_eq!(names(&dir), ["boids.csv", "out.csv", "settings.ron"]);
}

#[test]
fn a_bad_boids_file_names_the_line_and_writes_nothing() {
    let dir = scratch("bad-csv");
    let boids = dir.write("boids.csv", "x,y,vx,vy\n1,2,3,4\n1,2,three,4\n");
    let out = dir.join("out.csv");
    let output = flock(&[
        "simulate",
        "--input",
        boids.to_str().unwrap(),
        "--steps",
        "3",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("line 3") && message.contains("`vx`"),
        "{message}"
    );
    assert!(!out.exists(), "no output on error");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no partial file"
    );
}

#[test]
fn bad_settings_name_the_field() {
    let dir = scratch("bad-ron");
    let path = dir.join("settings.ron");
    let fails_naming = |ron: String, needle: &str| {
        std::fs::write(&path, ron).unwrap();
        let output = flock(&[
            "simulate",
            "--count",
            "5",
            "--steps",
            "1",
            "--settings",
            path.to_str().unwrap(),
        ]);
        assert!(!output.status.success());
        assert!(stderr(&output).contains(needle), "{}", stderr(&output));
    };
    let mut settings = FlockSettings::default();
    settings.config.separation_radius = -3.0;
    fails_naming(ron::to_string(&settings).unwrap(), "separation_radius");
    fails_naming(
        "(config: (separation_radius: \"wide\"))".to_string(),
        "settings.ron",
    );
}

#[test]
fn bad_values_are_refused() {
    for args in [
        &["simulate", "--count", "5", "--steps", "1", "--dt", "-1"][..],
        &["simulate", "--count", "5", "--steps", "1", "--every", "0"][..],
        &["simulate", "--steps", "1"][..],
        &["simulate", "--count", "five", "--steps", "1"][..],
    ] {
        let output = flock(args);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(!stderr(&output).is_empty());
        assert!(output.stdout.is_empty(), "{args:?} wrote output");
    }
}

#[test]
fn bench_prints_the_tables() {
    let sizes = [
        "bench",
        "--sizes",
        "2k",
        "--neighbours",
        "8",
        "--app-sizes",
        "2k",
    ];
    let output = stdout(&flock(&[&sizes[..], &QUICK_BENCH].concat()));
    assert!(output.contains("| 2k | 8 | grid |"), "{output}");
    assert!(output.contains("| 2k | 8 | KD-tree |"), "{output}");
    assert!(output.contains("| 2k | 8 | brute force |"), "{output}");
    assert!(output.contains("grid / KD-tree"), "{output}");
    assert!(output.contains("App::update()"), "{output}");
}

#[test]
fn absurd_counts_threads_and_steps_are_errors_not_aborts() {
    for (args, needle) in [
        (&["--count", "18446744073709551615"][..], "at most 10000000"),
        (&["--count", "100000000000"][..], "at most 10000000"),
        (&["--count", "99999999999999999999999"][..], "not a count"),
        (&["--count", "20M"][..], "at most 10000000"),
        (&["--count", "5", "--threads", "0"][..], "thread count"),
        (
            &["--count", "5", "--threads", "1000000"][..],
            "thread count",
        ),
        (&["--count", "5", "--dt", "1e30"][..], "at most 1 second"),
        (&["--count", "5", "--dt", "inf"][..], "at most 1 second"),
        (&["--count", "5", "--dt", "NaN"][..], "at most 1 second"),
        (&["--count", "5", "--dt", "0"][..], "above zero"),
        (&["--count", "5", "--dt=-1e-3"][..], "above zero"),
    ] {
        let mut all = vec!["simulate", "--steps", "2"];
        all.extend_from_slice(args);
        let output = flock(&all);
        fails_cleanly(&output, needle);
        assert!(output.stdout.is_empty(), "{args:?} wrote output");
    }
    // The largest step accepted still keeps every boid finite.
    let csv = stdout(&flock(&[
        "simulate", "--count", "50", "--steps", "20", "--dt", "1", "--every", "20",
    ]));
    assert!(
        csv.lines()
            .skip(1)
            .flat_map(|line| line.split(',').skip(2))
            .all(|value| value.parse::<f32>().unwrap().is_finite())
    );
    for subcommand in [
        &["soak", "--steps", "1"][..],
        &["bench", "--app-sizes", "none"][..],
    ] {
        let mut all = subcommand.to_vec();
        all.extend_from_slice(&["--threads", "100000"]);
        fails_cleanly(&flock(&all), "thread count");
    }
    fails_cleanly(
        &flock(&["soak", "--count", "1000M", "--steps", "1"]),
        "at most 10000000",
    );
    fails_cleanly(
        &flock(&["bench", "--sizes", "50M", "--app-sizes", "none"]),
        "at most 10000000",
    );
}

#[test]
fn boids_on_a_line_far_apart_with_a_bouncing_preset_run_in_bounded_memory() {
    // Two boids 1e20 apart (and, in another file, 1e9 apart under a radius of 1e-9): the grid
    // once sized itself to the extent and asked for 16 GiB on step 1.
    let dir = scratch("far-apart");
    let cases = [
        ("0,0,1,0\n1e20,0,0,1\n", 100.0),
        ("0,0,1,0\n1e9,0,0,1\n", 1e-9),
        ("-3e38,-3e38,1,0\n3e38,3e38,0,1\n", 10.0),
    ];
    for (i, (rows, radius)) in cases.into_iter().enumerate() {
        let boids = dir.write(format!("boids{i}.csv"), format!("x,y,vx,vy\n{rows}"));
        let mut settings = FlockSettings::default();
        settings.config.edges = bevy_flock::prelude::EdgeMode::Bounce;
        settings.config.separation_radius = radius;
        settings.config.alignment_radius = radius;
        settings.config.cohesion_radius = radius;
        let ron_path = dir.write(
            format!("settings{i}.ron"),
            ron::to_string(&settings).unwrap(),
        );
        let csv = stdout(&simulate_files(&ron_path, &boids, &["--steps", "3"]));
        let bounds = settings.config.bounds;
        for line in csv.lines().skip(3) {
            let values: Vec<f32> = line.split(',').map(|v| v.parse().unwrap()).collect();
            let position = bevy::math::Vec2::new(values[2], values[3]);
            assert!(bounds.contains(position), "{rows}: {line}");
        }
    }
}

#[test]
#[cfg(target_os = "linux")]
fn a_write_that_fails_midway_is_an_error() {
    // `/dev/full` takes the first bytes, then every write fails as on a full disk: after the
    // header and the first rows are out. It is reached through a link in a scratch folder, so
    // a tool that renamed a file over its output would replace the link, never the device. A
    // device is written in place (a renamed file would replace it rather than write to it),
    // and nothing is left beside the link.
    let dir = scratch("dev-full");
    let out = dir.join("out.csv");
    std::os::unix::fs::symlink("/dev/full", &out).unwrap();
    let output = flock(&[
        "simulate",
        "--count",
        "2000",
        "--steps",
        "5",
        "--output",
        out.to_str().unwrap(),
    ]);
    fails_cleanly(&output, "cannot write");
    assert!(
        stderr(&output).contains("No space left on device"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_link(&out).unwrap(),
        PathBuf::from("/dev/full")
    );
    assert_eq!(names(&dir), ["out.csv"]);
}

#[test]
#[cfg(unix)]
fn an_existing_output_is_kept_intact_when_writing_fails_midway() {
    // A file-size limit makes a write fail part way through the temporary file, as a full disk
    // would (the shell ignores SIGXFSZ, so the write returns an error instead of killing the
    // process). The output file that was there stays exactly as it was, and the temporary file
    // is removed.
    let dir = scratch("intact");
    let out = dir.write("out.csv", "precious\n");
    let binary = env!("CARGO_BIN_EXE_flock");
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f 64; exec '{binary}' simulate --count 3000 --steps 10 \
             --output '{}'",
            out.display()
        ))
        .output()
        .unwrap();
    fails_cleanly(&output, "cannot write");
    assert!(stderr(&output).contains("too large"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    assert_eq!(names(&dir), ["out.csv"]);
    // A run that fails before writing keeps it too; one that succeeds replaces it whole.
    fails_cleanly(
        &flock(&[
            "simulate",
            "--input",
            dir.join("missing.csv").to_str().unwrap(),
            "--steps",
            "1",
            "--output",
            out.to_str().unwrap(),
        ]),
        "missing.csv",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    stdout(&flock(&[
        "simulate",
        "--count",
        "3",
        "--steps",
        "1",
        "--output",
        out.to_str().unwrap(),
    ]));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().count(),
        1 + 2 * 3
    );
    assert_eq!(names(&dir), ["out.csv"]);
}

#[test]
fn two_runs_writing_the_same_output_do_not_mix() {
    // Each run writes its own temporary file (a fixed name had both write into one), so the
    // output is one run's whole output, whichever renamed last.
    let dir = scratch("two-runs");
    let out = dir.join("out.csv");
    let args = |seed: &'static str| {
        [
            "simulate", "--count", "2000", "--seed", seed, "--steps", "20", "--every", "2",
        ]
    };
    let expected = [stdout(&flock(&args("1"))), stdout(&flock(&args("2")))];
    let runs: Vec<_> = ["1", "2"]
        .into_iter()
        .map(|seed| {
            Command::new(env!("CARGO_BIN_EXE_flock"))
                .args(args(seed))
                .args(["--output", out.to_str().unwrap()])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut run in runs {
        assert!(run.wait().unwrap().success());
    }
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written == expected[0] || written == expected[1],
        "the output is neither run's ({} bytes)",
        written.len()
    );
    assert_eq!(names(&dir), ["out.csv"]);
}

#[test]
fn three_dimensions_read_and_write_x_y_z() {
    let dir = scratch("dims3");
    let input = dir.write(
        "boids.csv",
        "x,y,z,vx,vy,vz\n0,0,0,10,0,0\n30,0,-20,0,0,10\n",
    );
    let input = input.to_str().unwrap();
    let csv = stdout(&flock(&[
        "simulate", "--dims", "3", "--input", input, "--steps", "3",
    ]));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("step,id,x,y,z,vx,vy,vz"));
    let rows: Vec<Vec<f32>> = lines
        .map(|line| line.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 4 * 2, "steps 0 to 3 of two boids");
    assert_eq!(rows[1], [0.0, 1.0, 30.0, 0.0, -20.0, 0.0, 0.0, 10.0]);
    // The second boid flies along z, so its z changes while x and y stay.
    let last = &rows[7];
    assert!(last[4] > -20.0 && last[7] > 0.0, "{last:?}");
    // Random boids fill the box in all three axes, the same for any thread count.
    let random = |threads| {
        stdout(&flock(&[
            "simulate",
            "--dims",
            "3",
            "--count",
            "200",
            "--seed",
            "9",
            "--steps",
            "5",
            "--threads",
            threads,
        ]))
    };
    let one = random("1");
    assert_eq!(one, random("2"));
    let zs: Vec<f32> = one
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(4).unwrap().parse().unwrap())
        .collect();
    assert!(zs.iter().any(|z| *z > 100.0) && zs.iter().any(|z| *z < -100.0));
}

#[test]
fn files_of_the_other_dimension_are_named_as_such() {
    let dir = scratch("dims-mismatch");
    let boids2 = dir.write("boids2.csv", "x,y,vx,vy\n1,2,3,4\n");
    let boids3 = dir.write("boids3.csv", "x,y,z,vx,vy,vz\n1,2,3,4,5,6\n1,2,3,4,5\n");
    let settings2 = dir.write(
        "settings2.ron",
        ron::to_string(&FlockSettings::default()).unwrap(),
    );
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    for (args, needle) in [
        (
            vec!["--dims", "3", "--input", &path(&boids2)],
            "line 1: the header `x,y,vx,vy` is for 2D boids",
        ),
        (
            vec!["--dims", "3", "--input", &path(&boids3)],
            "line 3: 5 fields; expected 6 (x,y,z,vx,vy,vz)",
        ),
        (
            vec!["--input", &path(&boids3)],
            "the header `x,y,z,vx,vy,vz` is for 3D boids",
        ),
        (
            vec![
                "--dims",
                "3",
                "--settings",
                &path(&settings2),
                "--count",
                "5",
            ],
            "these are 2D settings (`config.bounds` corners with 2 coordinates)",
        ),
        (vec!["--dims", "4", "--count", "5"], "not a dimension"),
    ] {
        let mut all = vec!["simulate", "--steps", "1"];
        all.extend(args.iter().copied());
        let output = flock(&all);
        assert!(!output.status.success(), "{all:?}");
        assert!(
            stderr(&output).contains(needle),
            "{all:?}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).contains("panicked"), "{all:?}");
    }
}
