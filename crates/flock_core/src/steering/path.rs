//! Path following (Reynolds 1999, OpenSteer's `steerToFollowPath`): a path is a polyline with a
//! radius, a corridor the vehicle stays in. It predicts where it will be a little ahead,
//! projects that onto the path, and steers only when the prediction leaves the corridor or
//! would take it backwards along the path: then it seeks a point further along.

use std::fmt;

use super::{Vehicle, seek};
use crate::math::{Vector, non_negative};

/// Why a [`Polyline`] could not be made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathError {
    /// A path needs at least two points; it had this many.
    TooFewPoints(usize),
    /// The point at this index is not finite.
    PointNotFinite(usize),
    /// The radius is not a finite positive number.
    BadRadius(f32),
    /// Every point is the same, so the path has no length.
    NoLength,
    /// The path's length overflows `f32`.
    TooLong,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewPoints(count) => {
                write!(f, "a path needs at least two points, this one has {count}")
            }
            Self::PointNotFinite(index) => write!(f, "the path's point {index} is not finite"),
            Self::BadRadius(radius) => {
                write!(
                    f,
                    "a path's radius must be finite and positive, not {radius}"
                )
            }
            Self::NoLength => write!(f, "every point of the path is the same: it has no length"),
            Self::TooLong => write!(f, "the path is too long to measure in f32"),
        }
    }
}

impl std::error::Error for PathError {}

/// A validated path: two or more finite points joined by straight segments (the last one back
/// to the first when `looped`), and the radius of the corridor around them.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    points: Vec<Vector>,
    /// The distance along the path at which each point is reached.
    starts: Vec<f32>,
    length: f32,
    radius: f32,
    looped: bool,
}

/// A point of the world seen from a path: its nearest point on the path, how far along the
/// path that is, and how far the point is from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathProjection {
    /// The nearest point on the path.
    pub point: Vector,
    /// How far along the path (from its first point) that nearest point is.
    pub along: f32,
    /// How far the projected point is from the path.
    pub off_path: f32,
}

impl Polyline {
    /// A path through `points` with a corridor `radius` wide on each side; `looped` joins the
    /// last point back to the first. Errors say what is wrong: fewer than two points, a point
    /// that is not finite, a radius that is not finite and positive, no length at all.
    pub fn new(points: Vec<Vector>, radius: f32, looped: bool) -> Result<Self, PathError> {
        if points.len() < 2 {
            return Err(PathError::TooFewPoints(points.len()));
        }
        if let Some(index) = points.iter().position(|point| !point.is_finite()) {
            return Err(PathError::PointNotFinite(index));
        }
        if !(radius.is_finite() && radius > 0.0) {
            return Err(PathError::BadRadius(radius));
        }
        let mut path = Self {
            starts: Vec::new(),
            points,
            length: 0.0,
            radius,
            looped,
        };
        let mut along = 0.0;
        let mut starts = Vec::with_capacity(path.points.len());
        for (start, end) in path.segments() {
            starts.push(along);
            along += start.distance(end);
        }
        if !looped {
            starts.push(along);
        }
        path.starts = starts;
        if !along.is_finite() {
            return Err(PathError::TooLong);
        }
        if along <= 0.0 {
            return Err(PathError::NoLength);
        }
        path.length = along;
        Ok(path)
    }

    /// The points, in order.
    pub fn points(&self) -> &[Vector] {
        &self.points
    }

    /// The corridor's half width.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Whether the last point joins back to the first.
    pub fn is_looped(&self) -> bool {
        self.looped
    }

    /// The length along every segment.
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The segments, as start and end points: one fewer than the points, or as many when
    /// looped.
    pub fn segments(&self) -> impl Iterator<Item = (Vector, Vector)> + '_ {
        let count = if self.looped {
            self.points.len()
        } else {
            self.points.len() - 1
        };
        (0..count).map(|i| (self.points[i], self.points[(i + 1) % self.points.len()]))
    }

    /// The nearest point on the path to `point` (the first segment's, on a tie).
    pub fn project(&self, point: Vector) -> PathProjection {
        let mut best = PathProjection {
            point: self.points[0],
            along: 0.0,
            off_path: f32::INFINITY,
        };
        for ((start, end), &start_along) in self.segments().zip(&self.starts) {
            let segment = end - start;
            let length_squared = segment.length_squared();
            let t = if length_squared > 0.0 {
                ((point - start).dot(segment) / length_squared).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let nearest = start + segment * t;
            let off_path = point.distance(nearest);
            if off_path < best.off_path {
                best = PathProjection {
                    point: nearest,
                    along: start_along + t * length_squared.sqrt(),
                    off_path,
                };
            }
        }
        best
    }

    /// The point `along` the path from its first point: wrapped round a looped path, clamped
    /// to an open path's ends.
    pub fn point_at(&self, along: f32) -> Vector {
        let along = if self.looped {
            along.rem_euclid(self.length)
        } else {
            along.clamp(0.0, self.length)
        };
        // The segment whose start is the last one at or before `along`.
        let segment = self.starts.partition_point(|&start| start <= along).max(1) - 1;
        let segment = segment.min(self.segments().count() - 1);
        let start = self.points[segment];
        let end = self.points[(segment + 1) % self.points.len()];
        let length = start.distance(end);
        if length > 0.0 {
            start + (end - start) * ((along - self.starts[segment]) / length).min(1.0)
        } else {
            start
        }
    }

    /// How far along the path `to` is ahead of `from` (negative: behind); on a looped path the
    /// shorter way round.
    pub fn progress(&self, from: f32, to: f32) -> f32 {
        let gap = to - from;
        if self.looped {
            let half = self.length / 2.0;
            (gap + half).rem_euclid(self.length) - half
        } else {
            gap
        }
    }
}

/// Which way along a path a vehicle travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PathDirection {
    /// From the first point towards the last.
    #[default]
    Forward,
    /// From the last point towards the first.
    Backward,
}

impl PathDirection {
    /// +1 forward, -1 backward.
    pub fn sign(self) -> f32 {
        match self {
            Self::Forward => 1.0,
            Self::Backward => -1.0,
        }
    }
}

/// How a vehicle follows a path.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PathFollowParams {
    /// How far ahead in time it predicts its position, seconds.
    pub predict_time: f32,
    /// The least distance further along the path of the point it seeks when it steers (it
    /// seeks at least as far as it would travel in `predict_time`), so that a vehicle at rest
    /// still gets going.
    pub look_ahead: f32,
    /// Which way it travels.
    pub direction: PathDirection,
}

impl Default for PathFollowParams {
    fn default() -> Self {
        Self {
            predict_time: 0.5,
            look_ahead: 30.0,
            direction: PathDirection::Forward,
        }
    }
}

/// Reynolds' path following: no force while the position predicted `predict_time` ahead is
/// inside the corridor and further along the path in `direction`; otherwise seek the point
/// of the path a look-ahead further along than the vehicle's own projection. At the end of an
/// open path that point is the end itself. A vehicle or parameters that are not finite give
/// no force (negative times and distances count as zero).
pub fn follow_path(vehicle: &Vehicle, path: &Polyline, params: &PathFollowParams) -> Vector {
    if !(vehicle.position.is_finite() && vehicle.velocity.is_finite()) {
        return Vector::ZERO;
    }
    let predict_time = non_negative(params.predict_time);
    let sign = params.direction.sign();
    let now = path.project(vehicle.position);
    let future = path.project(vehicle.position + vehicle.velocity * predict_time);
    let going_the_right_way = sign * path.progress(now.along, future.along) > 0.0;
    if going_the_right_way && future.off_path <= path.radius() {
        return Vector::ZERO;
    }
    let travel = vehicle.velocity.length() * predict_time;
    let ahead = travel.max(non_negative(params.look_ahead));
    seek(vehicle, path.point_at(now.along + sign * ahead))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    fn square(looped: bool) -> Polyline {
        let corners = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        Polyline::new(corners.map(|(x, y)| planar(x, y)).to_vec(), 1.0, looped).unwrap()
    }

    #[test]
    fn bad_paths_are_refused_with_the_reason() {
        let two = vec![Vector::ZERO, planar(1.0, 0.0)];
        assert_eq!(
            Polyline::new(vec![Vector::ZERO], 1.0, false),
            Err(PathError::TooFewPoints(1))
        );
        assert_eq!(
            Polyline::new(Vec::new(), 1.0, true),
            Err(PathError::TooFewPoints(0))
        );
        for radius in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let refused = Polyline::new(two.clone(), radius, false).unwrap_err();
            assert!(matches!(refused, PathError::BadRadius(_)), "{radius}");
        }
        let nan = vec![Vector::ZERO, Vector::splat(f32::NAN)];
        assert_eq!(
            Polyline::new(nan, 1.0, false),
            Err(PathError::PointNotFinite(1))
        );
        let same = vec![planar(2.0, 2.0); 3];
        assert_eq!(Polyline::new(same, 1.0, true), Err(PathError::NoLength));
        let huge = vec![planar(-f32::MAX, 0.0), planar(f32::MAX, 0.0)];
        assert_eq!(Polyline::new(huge, 1.0, false), Err(PathError::TooLong));
        assert!(
            PathError::TooFewPoints(1)
                .to_string()
                .contains("at least two")
        );
    }

    #[test]
    fn lengths_projections_and_points_along() {
        let open = square(false);
        let looped = square(true);
        assert_eq!(open.length(), 30.0);
        assert_eq!(looped.length(), 40.0);
        let projected = open.project(planar(12.0, 5.0));
        assert_eq!(projected.point, planar(10.0, 5.0));
        assert_eq!(projected.along, 15.0);
        assert_eq!(projected.off_path, 2.0);
        assert_eq!(open.point_at(25.0), planar(5.0, 10.0));
        // An open path clamps to its ends; a loop wraps.
        assert_eq!(open.point_at(45.0), planar(0.0, 10.0));
        assert_eq!(open.point_at(-3.0), Vector::ZERO);
        assert_eq!(looped.point_at(45.0), planar(5.0, 0.0));
        assert_eq!(looped.point_at(-5.0), planar(0.0, 5.0));
        assert_eq!(looped.point_at(35.0), planar(0.0, 5.0));
        // The closing segment of a loop is part of it.
        assert_eq!(looped.project(planar(-1.0, 5.0)).along, 35.0);
        // Progress round a loop takes the shorter way.
        assert_eq!(looped.progress(38.0, 2.0), 4.0);
        assert_eq!(looped.progress(2.0, 38.0), -4.0);
        assert_eq!(open.progress(2.0, 28.0), 26.0);
    }

    /// Predicting one second ahead, seeking two units further along, forwards.
    const ONE_SECOND_AHEAD: PathFollowParams = PathFollowParams {
        predict_time: 1.0,
        look_ahead: 2.0,
        direction: PathDirection::Forward,
    };

    #[test]
    fn inside_the_corridor_and_going_the_right_way_there_is_no_force() {
        let path = square(true);
        let params = ONE_SECOND_AHEAD;
        let on_path = vehicle(planar(3.0, 0.5), planar(1.0, 0.0));
        assert_eq!(follow_path(&on_path, &path, &params), Vector::ZERO);
        // The same place going the other way along the path: it is turned round, towards the
        // point two units further along (5, 0).
        let backwards = vehicle(planar(3.0, 0.5), planar(-1.0, 0.0));
        let expected = seek(&backwards, planar(5.0, 0.0));
        assert_eq!(follow_path(&backwards, &path, &params), expected);
        // Backward along the path that is the right way.
        let reverse = PathFollowParams {
            direction: PathDirection::Backward,
            ..params
        };
        assert_eq!(follow_path(&backwards, &path, &reverse), Vector::ZERO);
    }

    #[test]
    fn a_prediction_leaving_the_corridor_seeks_further_along() {
        let path = square(false);
        let params = ONE_SECOND_AHEAD;
        // At (4, 0) heading off the path at 2 units a second: it will be 2 units off, so it
        // seeks its projection plus the 2 units it travels: (6, 0).
        let leaving = vehicle(planar(4.0, 0.0), planar(0.0, 2.0));
        let force = follow_path(&leaving, &path, &params);
        assert_eq!(force, seek(&leaving, planar(6.0, 0.0)));
        assert!(force.y < 0.0 && force.x > 0.0, "{force}");
        // At rest off the path it seeks the look-ahead point.
        let resting = vehicle(planar(4.0, -5.0), Vector::ZERO);
        assert_eq!(
            follow_path(&resting, &path, &params),
            seek(&resting, planar(6.0, 0.0))
        );
        // Not finite in, nothing out.
        let lost = vehicle(Vector::splat(f32::NAN), Vector::ZERO);
        assert_eq!(follow_path(&lost, &path, &params), Vector::ZERO);
        let bad = PathFollowParams {
            predict_time: f32::NAN,
            look_ahead: f32::INFINITY,
            ..params
        };
        assert!(follow_path(&resting, &path, &bad).is_finite());
    }

    #[test]
    fn a_vehicle_following_a_loop_stays_in_its_corridor() {
        // 20 s at 60 steps a second round a 200 x 100 loop with a 10-unit corridor, the force
        // truncated as the plugin does: once within the radius it stays within it.
        let corners = [(0.0, 0.0), (200.0, 0.0), (200.0, 100.0), (0.0, 100.0)];
        let path = Polyline::new(corners.map(|(x, y)| planar(x, y)).to_vec(), 10.0, true).unwrap();
        let params = PathFollowParams {
            predict_time: 0.2,
            look_ahead: 20.0,
            direction: PathDirection::Forward,
        };
        let mut me = Vehicle {
            position: planar(50.0, -60.0),
            velocity: Vector::ZERO,
            max_speed: 80.0,
            response_time: 1.0 / 60.0,
        };
        let dt = 1.0 / 60.0;
        let (mut reached, mut worst, mut travelled) = (false, 0.0f32, 0.0);
        for _ in 0..1200 {
            let force = crate::steering::combine(follow_path(&me, &path, &params), 4000.0, 1.0);
            me.velocity = (me.velocity + force * dt).clamp_length_max(me.max_speed);
            me.position += me.velocity * dt;
            travelled += me.velocity.length() * dt;
            let off = path.project(me.position).off_path;
            reached |= off <= path.radius();
            if reached {
                worst = worst.max(off);
            }
        }
        assert!(reached);
        assert!(worst <= path.radius(), "left the corridor by {worst}");
        // And it went round, not just sat in the corridor.
        assert!(travelled > 2.5 * path.length(), "{travelled}");
    }
}
