//! The neighbours' ORCA constraints worked out [`LANES`] at a time: [`agent_constraint`]'s
//! arithmetic, each lane its own neighbour, both of its cases (the cut-off disc and the nearest
//! leg) worked out for every lane and one picked. Which case a neighbour falls in is as good as
//! random in a crowd, and a step of straight-line arithmetic over arrays is what the compiler
//! turns into vector instructions. Every lane does the same operations in the same order as
//! [`agent_constraint`], so the constraints are the same bits; the rare neighbours it handles
//! otherwise (already overlapping, or in 3D straight on the cone's axis) go through it.

use super::half_planes::agent_constraint;
use super::lines::HalfSpace;
use crate::math::{DIMENSIONS, Vector};

/// How many neighbours are worked out together.
const LANES: usize = 4;

/// One value per lane.
type Lanes = [f32; LANES];

/// One vector per lane, axis by axis.
type VectorLanes = [Lanes; DIMENSIONS];

/// A neighbour as [`agent_constraint`] takes it (the agent's velocity, the horizon and the
/// step are the same for all).
#[derive(Clone, Copy, Debug)]
pub(super) struct Pair {
    /// The neighbour's position less the agent's.
    pub offset: Vector,
    /// The agent's velocity less the neighbour's.
    pub relative_velocity: Vector,
    /// The sum of both radii (and the clearance).
    pub combined_radius: f32,
    /// The agent's part of the avoidance.
    pub share: f32,
    /// Which way the two part on one point (+1 or -1).
    pub tie_break: f32,
}

impl Pair {
    /// [`agent_constraint`] for this pair: the reference the lanes reproduce.
    fn constraint(&self, velocity: Vector, horizon: f32, time_step: f32) -> HalfSpace {
        agent_constraint(
            velocity,
            self.offset,
            self.relative_velocity,
            self.combined_radius,
            horizon,
            time_step,
            self.share,
            self.tie_break,
        )
    }
}

/// Appends [`agent_constraint`] of each of `pairs` to `constraints`, in order, leaving out
/// those that are not finite.
pub(super) fn agent_constraints(
    velocity: Vector,
    horizon: f32,
    time_step: f32,
    pairs: &[Pair],
    constraints: &mut Vec<HalfSpace>,
) {
    for batch in pairs.chunks(LANES) {
        let lanes = BatchLanes::of(velocity, horizon, batch);
        for (lane, pair) in batch.iter().enumerate() {
            let constraint = if lanes.exact[lane] {
                lanes.constraint(lane)
            } else {
                pair.constraint(velocity, horizon, time_step)
            };
            if constraint.point.is_finite() && constraint.normal.is_finite() {
                constraints.push(constraint);
            }
        }
    }
}

/// A batch's constraints, lane by lane.
struct BatchLanes {
    point: VectorLanes,
    normal: VectorLanes,
    /// Whether the lane's constraint is [`agent_constraint`]'s (else the lane is one it
    /// handles in a case the lanes leave out).
    exact: [bool; LANES],
}

impl BatchLanes {
    /// The constraints of up to [`LANES`] pairs (lanes beyond them repeat the first).
    fn of(velocity: Vector, horizon: f32, batch: &[Pair]) -> Self {
        let pair = |lane: usize| batch.get(lane).unwrap_or(&batch[0]);
        let offset = vector_lanes(|lane| pair(lane).offset);
        let relative = vector_lanes(|lane| pair(lane).relative_velocity);
        let combined_radius = lanes(|lane| pair(lane).combined_radius);
        let share = lanes(|lane| pair(lane).share);
        let inverse_horizon = horizon.recip();

        let distance_squared = dot(&offset, &offset);
        let radius_squared = lanes(|l| combined_radius[l] * combined_radius[l]);
        // From the cut-off disc's centre to the relative velocity.
        let from_centre =
            axes(|axis| lanes(|l| relative[axis][l] - offset[axis][l] * inverse_horizon));
        let along_axis = dot(&from_centre, &offset);
        let from_centre_squared = dot(&from_centre, &from_centre);
        let nearest_disc = lanes_of(|l| {
            along_axis[l] < 0.0
                && along_axis[l] * along_axis[l] > radius_squared[l] * from_centre_squared[l]
        });

        // Nearest the cut-off disc: pushed out of it radially.
        let length = lanes(|l| from_centre_squared[l].sqrt());
        let disc_normal = axes(|axis| lanes(|l| from_centre[axis][l] / length[l]));
        let disc_push = lanes(|l| combined_radius[l] * inverse_horizon - length[l]);
        let disc_change = axes(|axis| lanes(|l| disc_normal[axis][l] * disc_push[l]));

        // Nearest a leg of the cone.
        let distance = lanes(|l| distance_squared[l].sqrt());
        let cone_axis = axes(|axis| lanes(|l| offset[axis][l] / distance[l]));
        let (side, side_found) = leg_side(&cone_axis, &offset, &relative, &from_centre);
        let sine = lanes(|l| combined_radius[l] / distance[l]);
        let cosine = lanes(|l| (distance_squared[l] - radius_squared[l]).sqrt() / distance[l]);
        let leg = axes(|axis| lanes(|l| cone_axis[axis][l] * cosine[l] + side[axis][l] * sine[l]));
        let leg_normal =
            axes(|axis| lanes(|l| side[axis][l] * cosine[l] - cone_axis[axis][l] * sine[l]));
        let along_leg = dot(&relative, &leg);
        let leg_change = axes(|axis| lanes(|l| leg[axis][l] * along_leg[l] - relative[axis][l]));

        let normal = pick(&nearest_disc, &disc_normal, &leg_normal);
        let change = pick(&nearest_disc, &disc_change, &leg_change);
        let point = axes(|axis| lanes(|l| velocity[axis] + change[axis][l] * share[l]));
        // Overlapping pairs (and not-a-number distances) are left to `agent_constraint`, whose
        // one-step obstacle parts them.
        let exact = lanes_of(|l| {
            distance_squared[l] > radius_squared[l] && (nearest_disc[l] || side_found[l])
        });
        Self {
            point,
            normal,
            exact,
        }
    }

    /// Lane `lane`'s constraint.
    fn constraint(&self, lane: usize) -> HalfSpace {
        let mut point = Vector::ZERO;
        let mut normal = Vector::ZERO;
        for axis in 0..DIMENSIONS {
            point[axis] = self.point[axis][lane];
            normal[axis] = self.normal[axis][lane];
        }
        HalfSpace { point, normal }
    }
}

/// The unit vector across the cone's axis towards the leg nearest the relative velocity,
/// lane by lane, and whether the lanes found it: in 2D always (RVO2's choice, as in
/// `half_planes.rs`: left of the offset or right).
#[cfg(not(flock_3d))]
fn leg_side(
    cone_axis: &VectorLanes,
    offset: &VectorLanes,
    _relative: &VectorLanes,
    from_centre: &VectorLanes,
) -> (VectorLanes, [bool; LANES]) {
    // `offset.perp_dot(from_centre) > 0`: the left leg, `axis.perp()`; else `-axis.perp()`.
    let left =
        lanes_of(|l| offset[0][l] * from_centre[1][l] - offset[1][l] * from_centre[0][l] > 0.0);
    let [x, y] = *cone_axis;
    let perp = [lanes(|l| -y[l]), x];
    let opposite = [y, lanes(|l| -x[l])];
    (pick(&left, &perp, &opposite), [true; LANES])
}

/// In 3D: the relative velocity's part across the axis, normalised; a lane straight on the
/// axis is not found (`half_planes.rs` picks its side another way).
#[cfg(flock_3d)]
fn leg_side(
    cone_axis: &VectorLanes,
    _offset: &VectorLanes,
    relative: &VectorLanes,
    _from_centre: &VectorLanes,
) -> (VectorLanes, [bool; LANES]) {
    let along = dot(relative, cone_axis);
    let across = axes(|axis| lanes(|l| relative[axis][l] - cone_axis[axis][l] * along[l]));
    let (across_squared, relative_squared) = (dot(&across, &across), dot(relative, relative));
    let across_length = lanes(|l| across_squared[l].sqrt());
    let relative_length = lanes(|l| relative_squared[l].sqrt());
    let found = lanes_of(|l| {
        across_length[l] > super::half_planes::NO_DIRECTION * relative_length[l].max(1.0)
    });
    (
        axes(|axis| lanes(|l| across[axis][l] / across_length[l])),
        found,
    )
}

/// `value(lane)` for every lane.
#[inline(always)]
fn lanes(value: impl Fn(usize) -> f32) -> Lanes {
    std::array::from_fn(value)
}

/// `if_true` in the lanes `mask` sets, `if_false` in the others.
#[inline(always)]
fn pick(mask: &[bool; LANES], if_true: &VectorLanes, if_false: &VectorLanes) -> VectorLanes {
    axes(|axis| {
        lanes(|l| {
            if mask[l] {
                if_true[axis][l]
            } else {
                if_false[axis][l]
            }
        })
    })
}

/// `flag(lane)` for every lane.
#[inline(always)]
fn lanes_of(flag: impl Fn(usize) -> bool) -> [bool; LANES] {
    std::array::from_fn(flag)
}

/// `value(axis)` for every axis.
#[inline(always)]
fn axes(value: impl Fn(usize) -> Lanes) -> VectorLanes {
    std::array::from_fn(value)
}

/// The lanes of `vector(lane)`, axis by axis.
#[inline(always)]
fn vector_lanes(vector: impl Fn(usize) -> Vector) -> VectorLanes {
    axes(|axis| lanes(|l| vector(l)[axis]))
}

/// The dot products, lane by lane, summed axis after axis as `Vector::dot` sums them.
#[inline(always)]
fn dot(a: &VectorLanes, b: &VectorLanes) -> Lanes {
    lanes(|l| {
        let mut sum = a[0][l] * b[0][l];
        for axis in 1..DIMENSIONS {
            sum += a[axis][l] * b[axis][l];
        }
        sum
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steering::orca::test_random::unit;

    /// The lanes give `agent_constraint`'s bits, for every case it has and for any batch size.
    #[test]
    fn the_lanes_give_the_same_bits_as_one_at_a_time() {
        let mut random = 11_u64;
        let vector = |random: &mut u64, scale: f32| {
            let mut v = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                v[axis] = (unit(random) * 2.0 - 1.0) * scale;
            }
            v
        };
        // How many pairs the lanes worked out themselves, of how many.
        let (mut by_lanes, mut all) = (0, 0);
        for round in 0..400 {
            let count = round % 19;
            let velocity = vector(&mut random, 3.0);
            let pairs: Vec<Pair> = (0..count)
                .map(|index| {
                    let mut pair = Pair {
                        offset: vector(&mut random, 10.0),
                        relative_velocity: vector(&mut random, 4.0),
                        combined_radius: 0.5 + unit(&mut random) * 3.0,
                        share: unit(&mut random),
                        tie_break: if index % 2 == 0 { 1.0 } else { -1.0 },
                    };
                    match index % 11 {
                        // Overlapping; on one point; straight at each other; not a number.
                        1 => pair.offset *= 0.05,
                        2 => pair.offset = Vector::ZERO,
                        3 => pair.relative_velocity = pair.offset * 0.7,
                        4 => pair.offset[0] = f32::NAN,
                        _ => {}
                    }
                    pair
                })
                .collect();
            for batch in pairs.chunks(LANES) {
                let lanes = BatchLanes::of(velocity, 2.0, batch);
                by_lanes += lanes.exact[..batch.len()]
                    .iter()
                    .filter(|&&exact| exact)
                    .count();
                all += batch.len();
            }
            let mut lanes = Vec::new();
            agent_constraints(velocity, 2.0, 0.25, &pairs, &mut lanes);
            let one_by_one: Vec<HalfSpace> = pairs
                .iter()
                .map(|pair| pair.constraint(velocity, 2.0, 0.25))
                .filter(|c| c.point.is_finite() && c.normal.is_finite())
                .collect();
            let bits = |constraints: &[HalfSpace]| -> Vec<[u32; 2 * DIMENSIONS]> {
                constraints
                    .iter()
                    .map(|c| {
                        std::array::from_fn(|i| {
                            if i < DIMENSIONS {
                                c.point[i].to_bits()
                            } else {
                                c.normal[i - DIMENSIONS].to_bits()
                            }
                        })
                    })
                    .collect()
            };
            assert_eq!(bits(&lanes), bits(&one_by_one), "round {round}");
        }
        // Both ways were taken: the lanes for most pairs, `agent_constraint` for the rest.
        assert!(
            by_lanes > all / 2 && by_lanes < all,
            "{by_lanes} of {all} by the lanes"
        );
    }
}
