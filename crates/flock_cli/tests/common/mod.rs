//! What the command line's tests share: running the real `flock` binary, reading what it
//! printed, and a scratch folder per test.
#![allow(dead_code)] // Each test file uses some of these.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Options that make `flock bench` measure once, briefly: for tests of its output, not speed.
pub const QUICK_BENCH: [&str; 6] = ["--steps", "3", "--warmup", "1", "--seconds", "0.1"];

/// Runs the `flock` binary with `args` and waits for it.
pub fn flock(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flock"))
        .args(args)
        .output()
        .expect("the flock binary runs")
}

/// Standard output of a run that succeeded (it fails the test with the run's errors otherwise).
pub fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "flock failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Fails with an error message (an exit code, not a signal: no abort, no panic's 101).
pub fn fails_cleanly(output: &Output, needle: &str) {
    let message = stderr(output);
    assert!(
        matches!(output.status.code(), Some(1 | 2)),
        "exit {:?}: {message}",
        output.status
    );
    assert!(message.contains(needle), "`{needle}` not in: {message}");
    assert!(!message.contains("panicked"), "{message}");
}

/// A fresh folder for one test's files.
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("flock-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A test's own folder, removed when the test ends (passed or not).
pub struct Scratch(PathBuf);

impl Scratch {
    /// Writes `contents` to the file `name` in this folder and returns its path.
    pub fn write(&self, name: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl std::ops::Deref for Scratch {
    type Target = PathBuf;

    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The names in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
