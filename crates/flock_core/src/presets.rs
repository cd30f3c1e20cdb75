//! The source documents' flocks as [`FlockConfig`]s, in their own length units and in seconds.
//!
//! The documents step once a frame at 60 frames per second, so a speed of `s` per frame is
//! `60 s` per second, a force of `f` per frame squared is `3600 f` per second squared, and the
//! response time is one frame: stepped at 1/60 s (the plugin's default rate) each preset moves
//! as its document does per frame. `docs/sources.md` lists, document by document, what each one
//! gives and what is ours.

use crate::config::{
    Bounds, EdgeMode, FlockConfig, ForceLimit, IndexKind, Neighbours, RuleWeights, SpeedMode,
};
use crate::math::world_size;

/// The documents' frame rate.
pub const DOCUMENT_FPS: f32 = 60.0;

/// One frame of the source documents.
const ONE_FRAME: f32 = 1.0 / DOCUMENT_FPS;

/// Converts a per-frame speed at 60 frames per second to units per second.
fn per_second(per_frame: f32) -> f32 {
    per_frame * DOCUMENT_FPS
}

/// Converts a per-frame-squared force at 60 frames per second to units per second squared.
fn per_second_squared(per_frame_squared: f32) -> f32 {
    per_frame_squared * DOCUMENT_FPS * DOCUMENT_FPS
}

impl FlockConfig {
    /// Processing's *Flocking* (max speed 2 and max force 0.03 per frame, separation 25,
    /// alignment and cohesion 50 pixels, weights 1.5 / 1 / 1), converted to seconds at 60 fps:
    /// stepped at 1/60 s it moves exactly as Processing's does per frame.
    pub fn processing() -> Self {
        Self {
            separation_radius: 25.0,
            alignment_radius: 50.0,
            cohesion_radius: 50.0,
            weights: RuleWeights::default(),
            max_speed: per_second(2.0),
            speed_mode: SpeedMode::Clamp { min_speed: 0.0 },
            max_force: per_second_squared(0.03),
            force_limit: ForceLimit::Truncate,
            response_time: ONE_FRAME,
            mass: 1.0,
            view_angle_degrees: 360.0,
            edges: EdgeMode::Wrap,
            bounds: Bounds::default(),
            wrap_neighbours: true,
            index: IndexKind::default(),
            neighbours: Neighbours::Metric,
        }
    }

    /// Processing's *Flocking* as ported to Unity, second version (max speed 0.02 and max force
    /// 0.001 per frame, radii 0.4 / 0.8 / 0.8, weights 1.5 / 1 / 1, constant speed, rescaled
    /// forces, borders that jump to the opposite edge at x = +-10, y = +-5, plain distance),
    /// converted to seconds at 60 fps.
    pub fn unity_port() -> Self {
        Self {
            separation_radius: 0.4,
            alignment_radius: 0.8,
            cohesion_radius: 0.8,
            weights: RuleWeights::default(),
            max_speed: per_second(0.02),
            speed_mode: SpeedMode::Constant,
            max_force: per_second_squared(0.001),
            force_limit: ForceLimit::Rescale,
            response_time: ONE_FRAME,
            mass: 1.0,
            view_angle_degrees: 360.0,
            edges: EdgeMode::Jump,
            bounds: Bounds::centered(world_size(20.0, 10.0)),
            wrap_neighbours: false,
            index: IndexKind::default(),
            neighbours: Neighbours::Metric,
        }
    }

    /// Processing's *Flocking* as ported to Unity, first version: the second version's world,
    /// speed and rules, with max force 0.003 per frame, radii 0.75 / 1.1 / 1.1 and weights
    /// 0.15 / 0.1 / 0.1. (The first version computes the rules in three passes; one pass gives
    /// the same sums.)
    pub fn unity_port_first() -> Self {
        Self {
            separation_radius: 0.75,
            alignment_radius: 1.1,
            cohesion_radius: 1.1,
            weights: RuleWeights {
                separation: 0.15,
                alignment: 0.1,
                cohesion: 0.1,
            },
            max_force: per_second_squared(0.003),
            ..Self::unity_port()
        }
    }

    /// *The Nature of Code*'s scene (6.11: separation, 100 vehicles), in the sketch's 320 x 240
    /// pixels times `pixels_per_sketch_pixel`: separation within the document's 20 pixels. Max
    /// speed 3 and max force 0.2 per frame are *The Nature of Code*'s usual vehicle, not numbers of
    /// this document. Bouncing edges keep the vehicles in the sketch (the document shows no edges).
    pub fn nature_of_code(pixels_per_sketch_pixel: f32) -> Self {
        Self {
            separation_radius: 20.0,
            alignment_radius: 20.0,
            cohesion_radius: 20.0,
            // The scene adds a seek of weight 0.5 to the mouse; 1.5 and 0.5 are *The Nature of
            // Code*'s weights for this pair (its next section), not numbers of this document.
            weights: RuleWeights {
                separation: 1.5,
                alignment: 0.0,
                cohesion: 0.0,
            },
            max_speed: per_second(3.0),
            max_force: per_second_squared(0.2),
            edges: EdgeMode::Bounce,
            bounds: Bounds::centered(world_size(320.0, 240.0)),
            ..Self::processing()
        }
        .scaled(pixels_per_sketch_pixel)
    }

    /// The field-of-view scene's Reynolds mix (the ActionScript flocking tutorial's view: a
    /// half-plane in front, bouncing edges). The tutorial gives neither distances nor speeds: a
    /// sight distance of 200 pixels, too close within 60, max speed 3 and max force 0.05 per frame
    /// are ours.
    pub fn field_of_view() -> Self {
        Self {
            separation_radius: 60.0,
            alignment_radius: 200.0,
            cohesion_radius: 200.0,
            weights: RuleWeights::default(),
            max_speed: per_second(3.0),
            max_force: per_second_squared(0.05),
            view_angle_degrees: 180.0,
            edges: EdgeMode::Bounce,
            ..Self::processing()
        }
    }

    /// The tank-group scene (the Unity tank group): tanks do not flock (zero weights; their group
    /// drives them), the rule radii are the keep distance so the index finds every mate, and there
    /// are no edges (its tanks drive on an open ground plane). `keep_distance` is in the scene's
    /// units.
    pub fn tank_group(keep_distance: f32) -> Self {
        Self {
            separation_radius: keep_distance,
            alignment_radius: keep_distance,
            cohesion_radius: keep_distance,
            weights: RuleWeights::NONE,
            edges: EdgeMode::Free,
            ..Self::processing()
        }
    }

    /// The cocos2d-x crowd demo's crowd node (pixels, per frame at 60 fps): radii cohesion 100,
    /// separation 40, alignment 50, max speed 100 px/s, bouncing off the window edges.
    ///
    /// The demo weights forces of very different sizes: its separation is `dtSpeed / distance`
    /// (about 0.1 of its cohesion's seek at its spacing) times 30, while cohesion (0.5) and
    /// alignment (1) are seek-sized. Our rules are each limited to the same `max_force`, so the
    /// weights carry only the balance: 30 / distance at the crowd's typical spacing of about 15 px
    /// is 2, which keeps the demo's "separation wins up close, alignment over cohesion".
    pub fn crowd() -> Self {
        Self::crowd_mix(0.5, 30.0, 1.0)
    }

    /// The cocos2d-x crowd demo's crowd node with one of its weight mixes (`setCohesionWeight`,
    /// `setSeparationWeight`, `setAlignmentWeight`): the document shows 0.5 / 30 / 0,
    /// 0.5 / 0 / 1, 0 / 30 / 1 and 0.5 / 30 / 1. A separation weight of 30 becomes 2 here (see
    /// [`FlockConfig::crowd`]).
    pub fn crowd_mix(cohesion: f32, separation: f32, alignment: f32) -> Self {
        Self {
            separation_radius: 40.0,
            alignment_radius: 50.0,
            cohesion_radius: 100.0,
            weights: RuleWeights {
                separation: separation / 15.0,
                alignment,
                cohesion,
            },
            max_speed: 100.0,
            // The crowd demo divides its steering by a mass of 20; its steering is at most a few
            // pixels per frame, so about 0.1 px per frame squared: 360 px/s^2.
            max_force: 360.0,
            edges: EdgeMode::Bounce,
            bounds: Bounds::centered(world_size(1280.0, 720.0)),
            ..Self::processing()
        }
    }

    /// The cocos2d-x crowd demo's one-rule nodes: every weight zero but the one `turn_on` sets
    /// to 1, that rule's radius for all three, and the node's speed.
    fn one_rule(turn_on: impl FnOnce(&mut RuleWeights), radius: f32, max_speed: f32) -> Self {
        let mut weights = RuleWeights::NONE;
        turn_on(&mut weights);
        Self {
            separation_radius: radius,
            alignment_radius: radius,
            cohesion_radius: radius,
            weights,
            max_speed,
            ..Self::crowd()
        }
    }

    /// The cocos2d-x crowd demo's cohesion node: cohesion alone, radius 100, max speed 50 px/s.
    pub fn crowd_cohesion_only() -> Self {
        Self::one_rule(|weights| weights.cohesion = 1.0, 100.0, 50.0)
    }

    /// The cocos2d-x crowd demo's separation node: separation alone, radius 30, max speed 50 px/s.
    pub fn crowd_separation_only() -> Self {
        Self::one_rule(|weights| weights.separation = 1.0, 30.0, 50.0)
    }

    /// The cocos2d-x crowd demo's alignment node: alignment alone, radius 150, max speed 150 px/s.
    pub fn crowd_alignment_only() -> Self {
        Self::one_rule(|weights| weights.alignment = 1.0, 150.0, 150.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid() {
        let presets = [
            FlockConfig::processing(),
            FlockConfig::unity_port(),
            FlockConfig::unity_port_first(),
            FlockConfig::nature_of_code(3.0),
            FlockConfig::field_of_view(),
            FlockConfig::tank_group(100.0),
            FlockConfig::crowd(),
            FlockConfig::crowd_mix(0.5, 0.0, 1.0),
            FlockConfig::crowd_cohesion_only(),
            FlockConfig::crowd_separation_only(),
            FlockConfig::crowd_alignment_only(),
        ];
        for preset in presets {
            assert_eq!(preset.validate(), Ok(()), "{preset:?}");
        }
    }

    #[test]
    fn per_frame_numbers_become_per_second() {
        let unity = FlockConfig::unity_port();
        assert!((unity.max_speed - 1.2).abs() < 1e-6);
        assert!((unity.max_force - 3.6).abs() < 1e-6);
        let first = FlockConfig::unity_port_first();
        assert!((first.max_force - 10.8).abs() < 1e-5);
        assert_eq!(first.bounds, unity.bounds);
        // The Nature of Code's sketch: 320 x 240, three times as large.
        let sketch = FlockConfig::nature_of_code(3.0);
        assert_eq!(sketch.bounds.size(), world_size(960.0, 720.0));
        assert!((sketch.separation_radius - 60.0).abs() < 1e-4);
    }

    #[test]
    fn the_crowd_is_its_all_three_mix() {
        assert_eq!(FlockConfig::crowd(), FlockConfig::crowd_mix(0.5, 30.0, 1.0));
        assert_eq!(FlockConfig::crowd().weights.separation, 2.0);
    }
}
