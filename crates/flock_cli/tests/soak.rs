//! `flock soak` as a user runs it: a short soak of the kernel and of the plugin passes its own
//! checks and reports memory; nonsense options are refused.

mod common;

use common::flock;

#[test]
fn a_short_soak_of_kernel_and_app_finds_every_boid_sound() {
    for extra in [None, Some("--app")] {
        let mut args = vec!["soak", "--count", "300", "--steps", "400", "--threads", "2"];
        args.extend(extra);
        let output = flock(&args);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{args:?}: {text}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            text.contains("100 checks: every boid finite and in the bounds, none lost"),
            "{text}"
        );
        assert!(text.contains("MiB after warm-up"), "{text}");
    }
}

#[test]
fn zero_steps_are_refused() {
    let output = flock(&["soak", "--count", "10", "--steps", "0"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--steps 0"));
}
