//! The shape of the world as the neighbour search sees it: plain or periodic.

use crate::config::{Bounds, FlockConfig};
use crate::math::{DIMENSIONS, Vector};

/// Where distances are measured: inside `bounds`, and across its seams when `periodic`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Space {
    /// The world rectangle.
    pub bounds: Bounds,
    /// Whether the world wraps, so the shortest way between two points may cross an edge.
    pub periodic: bool,
}

/// The shortest way from `from` to `to` in a world of `size`, axis by axis, to the bit:
/// `from` is moved by the whole worlds `k = (delta / size).round()` to its image nearest `to`,
/// then subtracted (`to - (from + size * k)`), as the grid's lanes subtract a query's image
/// from a candidate across a seam: every index then measures the same offset and counts the
/// same neighbours on a seam. Most offsets a search measures are within half the world, where
/// `k` is zero and the result is `delta + 0.0`; only the others round, which on x86-64 without
/// SSE4.1 is a call into libm (a twelfth of a crowd's step, when every neighbour's offset
/// rounded).
#[inline]
fn minimum_image(from: Vector, to: Vector, size: Vector) -> Vector {
    let delta = to - from;
    // Well within half the world on every axis (the usual case, a neighbour's offset): the
    // branch below would keep every axis, so its divisions are skipped. A quarter leaves room
    // for the division's rounding; -0.0 becomes 0.0 here too.
    if delta.abs().cmplt(size * 0.25).all() {
        return delta + Vector::ZERO;
    }
    let mut image = delta;
    for axis in 0..DIMENSIONS {
        let ratio = delta[axis] / size[axis];
        image[axis] = if ratio.abs() < 0.5 {
            // As the rounding gives: -0.0 becomes 0.0.
            delta[axis] + 0.0
        } else {
            to[axis] - (from[axis] + size[axis] * ratio.round())
        };
    }
    image
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
        if self.periodic {
            minimum_image(from, to, self.bounds.size())
        } else {
            to - from
        }
    }

    /// The images of `point` that a query of `radius` around it must also look at: the point
    /// itself, plus its copies shifted by one world size wherever the query circle (sphere in
    /// 3D) crosses an edge of a periodic space (both ways when the radius spans the world).
    /// Returns how many of `images` are filled.
    pub(crate) fn query_images(
        &self,
        point: Vector,
        radius: f32,
        images: &mut [Vector; MAX_IMAGES],
    ) -> usize {
        images[0] = point;
        if !self.periodic {
            return 1;
        }
        let size = self.bounds.size();
        let mut count = 1;
        // Every image so far, shifted along one more axis: 3 x 3 (x 3) at most.
        for axis in 0..DIMENSIONS {
            let mut shifts = [0.0; 2];
            let mut shift_count = 0;
            if point[axis] - radius < self.bounds.min[axis] {
                shifts[shift_count] = size[axis];
                shift_count += 1;
            }
            if point[axis] + radius > self.bounds.max[axis] {
                shifts[shift_count] = -size[axis];
                shift_count += 1;
            }
            let before = count;
            for &shift in &shifts[..shift_count] {
                for image in 0..before {
                    let mut shifted = images[image];
                    shifted[axis] += shift;
                    images[count] = shifted;
                    count += 1;
                }
            }
        }
        count
    }
}

/// The most images [`Space::query_images`] can give: three per axis.
pub(crate) const MAX_IMAGES: usize = 3usize.pow(DIMENSIONS as u32);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{planar, world_size};

    fn periodic() -> Space {
        Space {
            bounds: Bounds::centered(world_size(20.0, 10.0)),
            periodic: true,
        }
    }

    #[test]
    fn delta_crosses_the_seam_when_periodic() {
        let space = periodic();
        let delta = space.delta(planar(9.5, 0.0), planar(-9.5, 0.0));
        assert!((delta - planar(1.0, 0.0)).length() < 1e-5);
        let plain = Space {
            periodic: false,
            ..space
        };
        assert_eq!(
            plain.delta(planar(9.5, 0.0), planar(-9.5, 0.0)),
            planar(-19.0, 0.0)
        );
    }

    #[test]
    fn a_corner_query_has_four_images() {
        let mut images = [Vector::ZERO; MAX_IMAGES];
        let count = periodic().query_images(planar(9.8, 4.9), 0.5, &mut images);
        assert_eq!(count, 4);
        assert!(images[..count].contains(&planar(-10.2, -5.1)));
    }

    #[test]
    fn a_radius_wider_than_the_world_looks_both_ways() {
        let mut images = [Vector::ZERO; MAX_IMAGES];
        let count = periodic().query_images(Vector::ZERO, 12.0, &mut images);
        assert_eq!(count, MAX_IMAGES);
    }

    #[test]
    fn the_minimum_image_is_the_rounding_formula_to_the_bit() {
        // `from` moved to its image nearest `to`, then subtracted; a zero shift is the plain
        // difference, with -0.0 made 0.0.
        let formula = |from: f32, to: f32, size: f32| {
            let shift = ((to - from) / size).round();
            if shift == 0.0 {
                (to - from) + 0.0
            } else {
                to - (from + size * shift)
            }
        };
        let mut values = vec![
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
            1e30,
            -1e30,
        ];
        // Exactly half a world either way (ties), just inside and outside, and whole worlds.
        for size in [20.0_f32, 3.0, 1e9] {
            for ratio in [0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 7.0, 0.25, -0.49] {
                let value: f32 = size * ratio;
                values.extend([value, value.next_up(), value.next_down()]);
            }
        }
        let mut state = 11_u32;
        for _ in 0..2000 {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            values.push((state as f32 / u32::MAX as f32 - 0.5) * 100.0);
        }
        for size in [20.0_f32, 3.0, 1e9] {
            for (index, &to) in values.iter().enumerate() {
                // Other values as the points it is measured from, so the axes differ.
                let from = Vector::from_slice(&[
                    values[(index * 7 + 3) % values.len()],
                    values[(index * 13 + 5) % values.len()],
                    values[(index * 3 + 1) % values.len()],
                ]);
                let to = Vector::splat(to);
                let got = minimum_image(from, to, Vector::splat(size)).to_array();
                for axis in 0..DIMENSIONS {
                    let want = formula(from[axis], to[axis], size);
                    assert_eq!(
                        got[axis].to_bits(),
                        want.to_bits(),
                        "from {from:?} to {to:?} in {size}"
                    );
                }
            }
        }
    }
}
