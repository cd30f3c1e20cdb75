//! `flock crowd-bench` and `flock nav-bench` as a user runs them: the tables they print for
//! small crowds, and their options refused as an attacker would try them.

mod common;

use common::{fails_cleanly, flock, stdout};

/// The table rows (after the header and its rule) of a bench's output, split into cells.
fn rows(output: &str) -> Vec<Vec<String>> {
    output
        .lines()
        .filter(|line| line.starts_with('|') && !line.starts_with("|---"))
        .skip(1)
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

fn positive(cell: &str) -> bool {
    cell.parse::<f64>().is_ok_and(|value| value > 0.0)
}

#[test]
fn crowd_bench_prints_a_row_per_dimension_and_count() {
    let quick = ["--counts", "100,200", "--samples", "1", "--warmup", "0"];
    let output = stdout(&flock(&[&["crowd-bench"][..], &quick].concat()));
    let table = rows(&output);
    assert_eq!(table.len(), 4, "{output}");
    for (row, (dims, count)) in
        table
            .iter()
            .zip([("2", "100"), ("2", "200"), ("3", "100"), ("3", "200")])
    {
        assert_eq!(
            (row[0].as_str(), row[1].as_str()),
            (dims, count),
            "{output}"
        );
        assert!(row[2..].iter().all(|cell| positive(cell)), "{output}");
    }
    // ORCA only: the other columns are left out, not measured.
    let output = stdout(&flock(
        &[&["crowd-bench", "--dims", "3", "--orca-only"][..], &quick].concat(),
    ));
    let table = rows(&output);
    assert_eq!(table.len(), 2, "{output}");
    for row in &table {
        assert_eq!(row[0], "3", "{output}");
        assert!(positive(&row[2]), "{output}");
        assert_eq!(row[3..], ["-", "-", "-"], "{output}");
    }
}

#[test]
fn nav_bench_prints_a_row_per_dimension_and_count() {
    let output = stdout(&flock(&[
        "nav-bench",
        "--counts",
        "60",
        "--samples",
        "2",
        "--queries",
        "50",
        "--cross",
        "60",
    ]));
    let table = rows(&output);
    assert_eq!(table.len(), 2, "{output}");
    for (row, dims) in table.iter().zip(["2", "3"]) {
        assert_eq!((row[0].as_str(), row[1].as_str()), (dims, "60"), "{output}");
        // Polygons, build, queries/s, first update and steps/s measured; the crossing too.
        assert!(row[2..7].iter().all(|cell| positive(cell)), "{output}");
        assert!(positive(&row[9]), "{output}");
    }
}

#[test]
fn bench_options_out_of_range_are_errors_not_aborts() {
    for (args, needle) in [
        (&["crowd-bench", "--samples", "0"][..], "at least one"),
        (&["crowd-bench", "--slicing", "0"][..], "--slicing"),
        (&["crowd-bench", "--slicing", "4000000000"][..], "--slicing"),
        (&["crowd-bench", "--counts", "50M"][..], "at most 10000000"),
        (&["crowd-bench", "--counts", ""][..], "count"),
        (&["crowd-bench", "--dims", "4"][..], "not a dimension"),
        (&["nav-bench", "--samples", "0"][..], "at least one"),
        (&["nav-bench", "--queries", "0"][..], "at least one"),
        (&["nav-bench", "--cross", "NaN"][..], "--cross"),
        (&["nav-bench", "--cross", "inf"][..], "--cross"),
        (&["nav-bench", "--cross=-1"][..], "--cross"),
        (&["nav-bench", "--cross", "1e9"][..], "--cross"),
        (
            &["nav-bench", "--counts", "18446744073709551616"][..],
            "count",
        ),
        (&["nav-bench", "--dims", "2,x"][..], "not a dimension"),
    ] {
        let output = flock(args);
        fails_cleanly(&output, needle);
        assert!(output.stdout.is_empty(), "{args:?} printed a table");
    }
}
