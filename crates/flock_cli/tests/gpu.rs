//! `flock simulate --gpu` and `flock bench --gpu` as a user runs them: the real binary, on the
//! system's GPU adapter (Mesa's lavapipe in CI). Without an adapter they skip with a message,
//! unless `FLOCK_REQUIRE_GPU=1` (CI), where they fail.

mod common;

use std::process::Output;

use common::{QUICK_BENCH, fails_cleanly, flock};

/// Standard output of a run that succeeded, or `None` (with a message) when it found no
/// adapter and none is required.
fn gpu_stdout(output: &Output) -> Option<String> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success()
        && stderr.contains("no GPU adapter")
        && std::env::var("FLOCK_REQUIRE_GPU").as_deref() != Ok("1")
    {
        eprintln!("skipped: {stderr}");
        return None;
    }
    assert!(output.status.success(), "flock failed: {stderr}");
    Some(String::from_utf8(output.stdout.clone()).unwrap())
}

/// The rows of a CSV, each a list of numbers.
fn rows(csv: &str) -> Vec<Vec<f64>> {
    csv.lines()
        .skip(1)
        .map(|line| {
            line.split(',')
                .map(|value| value.parse().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn simulate_on_the_gpu_writes_the_cpu_paths_csv_to_within_rounding() {
    for dims in ["2", "3"] {
        let args = |gpu: bool| {
            let mut args = vec![
                "simulate", "--dims", dims, "--count", "400", "--seed", "9", "--steps", "30",
                "--every", "10",
            ];
            if gpu {
                args.push("--gpu");
            }
            flock(&args)
        };
        let Some(gpu) = gpu_stdout(&args(true)) else {
            return;
        };
        let cpu = gpu_stdout(&args(false)).unwrap();
        assert_eq!(gpu.lines().next(), cpu.lines().next(), "the same header");
        let (gpu, cpu) = (rows(&gpu), rows(&cpu));
        assert_eq!(gpu.len(), 4 * 400, "steps 0, 10, 20 and 30 of every boid");
        assert_eq!(gpu.len(), cpu.len());
        // The default world is 1280 wide: within 1e-4 of it after 30 steps.
        for (gpu_row, cpu_row) in gpu.iter().zip(&cpu) {
            assert_eq!(gpu_row[..2], cpu_row[..2], "step and id");
            for (g, c) in gpu_row[2..].iter().zip(&cpu_row[2..]) {
                assert!(
                    (g - c).abs() <= 0.128,
                    "{dims}D: GPU {gpu_row:?}, CPU {cpu_row:?}"
                );
            }
        }
    }
}

#[test]
fn bench_on_the_gpu_prints_its_table_beside_the_cpu() {
    let sizes = ["bench", "--gpu", "--dims", "2,3", "--gpu-sizes", "2k"];
    let output = flock(&[&sizes[..], &QUICK_BENCH].concat());
    let Some(output) = gpu_stdout(&output) else {
        return;
    };
    assert!(output.contains("2D GPU kernel"), "{output}");
    assert!(output.contains("3D GPU kernel"), "{output}");
    assert_eq!(output.matches("| 2k | ").count(), 2, "{output}");
}

#[test]
fn absurd_gpu_counts_are_errors_before_any_boid_is_made() {
    // A trillion boids would take 16 TB: refused with a message and an exit code, no abort.
    let simulate = [
        "simulate",
        "--gpu",
        "--count",
        "1000000000000",
        "--steps",
        "1",
    ];
    fails_cleanly(&flock(&simulate), "at most");
    let bench = ["bench", "--gpu", "--gpu-sizes", "1000000000000"];
    fails_cleanly(&flock(&[&bench[..], &QUICK_BENCH].concat()), "at most");
}
