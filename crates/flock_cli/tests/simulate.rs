//! `flock simulate` as a user runs it: the real binary, real files.

use std::path::PathBuf;
use std::process::{Command, Output};

use bevy_flock::FlockSettings;

fn flock(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flock"))
        .args(args)
        .output()
        .expect("the flock binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "flock failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flock-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let dir = scratch("files");
    let boids = dir.join("boids.csv");
    std::fs::write(&boids, "x,y,vx,vy\n0,0,10,0\n20,0,0,10\n\n-20,5,0,-10\n").unwrap();
    let settings = FlockSettings {
        max_boids: 50,
        ..FlockSettings::default()
    };
    let ron_path = dir.join("settings.ron");
    std::fs::write(&ron_path, ron::to_string(&settings).unwrap()).unwrap();
    let out = dir.join("out.csv");
    stdout(&flock(&[
        "simulate",
        "--settings",
        ron_path.to_str().unwrap(),
        "--input",
        boids.to_str().unwrap(),
        "--steps",
        "4",
        "--output",
        out.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 5 * 3);
    assert_eq!(lines[1], "0,0,0,0,10,0");
    assert_eq!(lines[3], "0,2,-20,5,0,-10");
    assert!(lines.last().unwrap().starts_with("4,2,"));
    // Nothing else was left beside the output.
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["boids.csv", "out.csv", "settings.ron"]);
}

#[test]
fn a_bad_boids_file_names_the_line_and_writes_nothing() {
    let dir = scratch("bad-csv");
    let boids = dir.join("boids.csv");
    std::fs::write(&boids, "x,y,vx,vy\n1,2,3,4\n1,2,three,4\n").unwrap();
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
            "--settings",
            path.to_str().unwrap(),
            "--count",
            "5",
            "--steps",
            "1",
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
    let output = stdout(&flock(&[
        "bench",
        "--sizes",
        "2k",
        "--neighbours",
        "8",
        "--app-sizes",
        "2k",
        "--steps",
        "3",
        "--warmup",
        "1",
        "--seconds",
        "0.1",
    ]));
    assert!(output.contains("| 2k | 8 | grid |"), "{output}");
    assert!(output.contains("| 2k | 8 | KD-tree |"), "{output}");
    assert!(output.contains("| 2k | 8 | brute force |"), "{output}");
    assert!(output.contains("grid / KD-tree"), "{output}");
    assert!(output.contains("App::update()"), "{output}");
}
