//! The shape of the world as the neighbour search sees it: plain or periodic.

use crate::config::{Bounds, FlockConfig};
use crate::math::Vector;

/// Where distances are measured: inside `bounds`, and across its seams when `periodic`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Space {
    /// The world rectangle.
    pub bounds: Bounds,
    /// Whether the world wraps, so the shortest way between two points may cross an edge.
    pub periodic: bool,
}

impl Space {
    /// The space a flock with this configuration lives in.
    pub fn of(config: &FlockConfig) -> Self {
        Self {
            bounds: config.bounds,
            periodic: config.neighbours_wrap(),
        }
    }

    /// The vector from `from` to `to`: in a periodic space the shortest one across the seams
    /// (the minimum image), otherwise the plain difference.
    #[inline]
    pub fn delta(&self, from: Vector, to: Vector) -> Vector {
        let delta = to - from;
        if self.periodic {
            let size = self.bounds.size();
            delta - size * (delta / size).round()
        } else {
            delta
        }
    }

    /// The images of `point` that a query of `radius` around it must also look at: the point
    /// itself, plus its copies shifted by one world size wherever the query circle crosses an
    /// edge of a periodic space (both ways when the radius spans the world). Returns how many
    /// of `images` are filled.
    pub(crate) fn query_images(
        &self,
        point: Vector,
        radius: f32,
        images: &mut [Vector; 9],
    ) -> usize {
        images[0] = point;
        if !self.periodic {
            return 1;
        }
        let size = self.bounds.size();
        let shifts = |coordinate: f32, low: f32, high: f32, extent: f32| {
            let mut shifts = [0.0, 0.0, 0.0];
            let mut count = 1;
            if coordinate - radius < low {
                shifts[count] = extent;
                count += 1;
            }
            if coordinate + radius > high {
                shifts[count] = -extent;
                count += 1;
            }
            (shifts, count)
        };
        let (x_shifts, x_count) = shifts(point.x, self.bounds.min.x, self.bounds.max.x, size.x);
        let (y_shifts, y_count) = shifts(point.y, self.bounds.min.y, self.bounds.max.y, size.y);
        let mut count = 0;
        for &dy in &y_shifts[..y_count] {
            for &dx in &x_shifts[..x_count] {
                images[count] = point + Vector::new(dx, dy);
                count += 1;
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn periodic() -> Space {
        Space {
            bounds: Bounds::centered(Vector::new(20.0, 10.0)),
            periodic: true,
        }
    }

    #[test]
    fn delta_crosses_the_seam_when_periodic() {
        let space = periodic();
        let delta = space.delta(Vector::new(9.5, 0.0), Vector::new(-9.5, 0.0));
        assert!((delta - Vector::new(1.0, 0.0)).length() < 1e-5);
        let plain = Space {
            periodic: false,
            ..space
        };
        assert_eq!(
            plain.delta(Vector::new(9.5, 0.0), Vector::new(-9.5, 0.0)),
            Vector::new(-19.0, 0.0)
        );
    }

    #[test]
    fn a_corner_query_has_four_images() {
        let mut images = [Vector::ZERO; 9];
        let count = periodic().query_images(Vector::new(9.8, 4.9), 0.5, &mut images);
        assert_eq!(count, 4);
        assert!(images[..count].contains(&Vector::new(-10.2, -5.1)));
    }

    #[test]
    fn a_radius_wider_than_the_world_looks_both_ways() {
        let mut images = [Vector::ZERO; 9];
        let count = periodic().query_images(Vector::ZERO, 12.0, &mut images);
        assert_eq!(count, 9);
    }
}
