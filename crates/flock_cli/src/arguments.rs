//! The values the subcommands' options share: boid counts (`500`, `10k`, `1M`), thread counts
//! and dimensions, parsed with a clear error for clap, and counts printed the way they are
//! typed.

use bevy_flock::FlockSettings;

/// Parses `1500`, `10k` or `1M`.
pub fn parse_count(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (digits, scale) = match text.chars().last() {
        Some('k' | 'K') => (&text[..text.len() - 1], 1_000),
        Some('m' | 'M') => (&text[..text.len() - 1], 1_000_000),
        _ => (text, 1),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("`{text}` is not a count (like 500, 10k or 1M)"))
}

/// A number of boids: a count (see [`parse_count`]) of at most
/// [`FlockSettings::MAX_BOIDS`], so an absurd one is an error rather than an abort on
/// allocation.
pub fn parse_boid_count(text: &str) -> Result<usize, String> {
    let count = parse_count(text)?;
    if count > FlockSettings::MAX_BOIDS {
        return Err(format!(
            "{count} boids: at most {} (FlockSettings::MAX_BOIDS)",
            FlockSettings::MAX_BOIDS
        ));
    }
    Ok(count)
}

/// The most threads a subcommand starts: more would fail to start (a panic in the standard
/// library or Bevy's task pool) long before it could help.
pub const MAX_THREADS: usize = 1024;

/// A thread count from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(threads @ 1..=MAX_THREADS) => Ok(threads),
        _ => Err(format!(
            "`{text}` is not a thread count from 1 to {MAX_THREADS}"
        )),
    }
}

/// A dimension: 2 or 3.
pub fn parse_dims(text: &str) -> Result<usize, String> {
    match text.trim() {
        "2" => Ok(2),
        "3" => Ok(3),
        other => Err(format!("`{other}` is not a dimension (2 or 3)")),
    }
}

/// 1000 -> 1k, 1000000 -> 1M: a count as [`parse_count`] reads it.
pub fn format_count(count: usize) -> String {
    match count {
        c if c >= 1_000_000 && c % 1_000_000 == 0 => format!("{}M", c / 1_000_000),
        c if c >= 1_000 && c % 1_000 == 0 => format!("{}k", c / 1_000),
        c => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_their_suffixes_and_print_back_the_same() {
        for (text, count) in [
            ("500", 500),
            ("10k", 10_000),
            ("2K", 2_000),
            ("1M", 1_000_000),
        ] {
            assert_eq!(parse_count(text), Ok(count));
        }
        for count in [500, 10_000, 1_000_000, 1_500] {
            assert_eq!(parse_count(&format_count(count)), Ok(count));
        }
        assert_eq!(format_count(1_500), "1500");
    }

    #[test]
    fn bad_counts_threads_and_dimensions_are_errors() {
        for text in ["", "k", "ten", "-1", "1.5k", "99999999999999999999999"] {
            assert!(parse_count(text).is_err(), "{text:?}");
        }
        assert!(parse_boid_count("20M").unwrap_err().contains("at most"));
        for text in ["0", "1025", "-2", "two"] {
            assert!(parse_threads(text).is_err(), "{text:?}");
        }
        assert_eq!(parse_threads("1024"), Ok(MAX_THREADS));
        for text in ["1", "4", "2d", ""] {
            assert!(parse_dims(text).is_err(), "{text:?}");
        }
    }
}
