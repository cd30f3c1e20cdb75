//! The shapes only 2D has, steered around over many steps: a turned rectangle and a concave
//! polygon in the way. (The cases both dimensions share are in `steering.rs`.)

extern crate flock_core as kernel;

mod common;

use common::seek_past;
use kernel::Vector;
use kernel::steering::{Polygon, Shape};

/// The distance from a polygon's outline: negative inside.
fn outline_distance(outline: &Polygon) -> impl Fn(Vector) -> f32 {
    let outline = outline.clone();
    move |p: Vector| {
        let gap = outline.nearest_edge(p).0.distance(p);
        if outline.contains(p) { -gap } else { gap }
    }
}

#[test]
fn obstacle_avoidance_goes_around_rotated_rectangles_and_polygons() {
    let target = Vector::new(400.0, 0.0);
    // A 120 x 40 plank turned 60 degrees, across the path.
    let centre = Vector::new(200.0, 3.0);
    let rotation = glam::Mat2::from_angle(60f32.to_radians());
    let half_size = Vector::new(60.0, 20.0);
    let plank = Shape::RotatedRect {
        centre,
        half_size,
        rotation,
    };
    // Inside or not, by the polygon of the same outline.
    let outline = Polygon::rectangle(half_size)
        .unwrap()
        .placed(centre, Vector::from_angle(60f32.to_radians()));
    let (closest, end) = seek_past(plank, outline_distance(&outline));
    assert!(closest > 0.0, "came {closest} inside the plank");
    assert!((end - target).length() < 30.0, "ended at {end}");

    // A concave arrowhead pointing at the vehicle.
    let arrow = Polygon::new([
        Vector::new(170.0, 0.0),
        Vector::new(240.0, -50.0),
        Vector::new(215.0, 0.0),
        Vector::new(240.0, 50.0),
    ])
    .unwrap();
    let (closest, end) = seek_past(Shape::Polygon(arrow.clone()), outline_distance(&arrow));
    assert!(closest > 0.0, "came {closest} inside the arrowhead");
    assert!((end - target).length() < 30.0, "ended at {end}");
}
