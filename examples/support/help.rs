//! A one-line help in the top-left corner of the view, kept there as the window resizes.

use bevy::prelude::*;
use bevy_flock::FlockSettings;

/// The help line's text; examples update it (e.g. with the current mode).
#[derive(Resource, Default)]
pub struct HelpLine(pub String);

/// Shows [`HelpLine`] in the top-left corner of the flock's bounds.
pub struct HelpLinePlugin(pub &'static str);

impl Plugin for HelpLinePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(HelpLine(self.0.to_owned()))
            .add_systems(Startup, spawn_help)
            .add_systems(Update, show_help);
    }
}

#[derive(Component)]
struct HelpText;

fn spawn_help(mut commands: Commands) {
    commands.spawn((
        HelpText,
        Text2d::default(),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(Color::srgb(0.85, 0.88, 0.95)),
        bevy::sprite::Anchor::TOP_LEFT,
        Transform::from_xyz(0.0, 0.0, 10.0),
    ));
}

fn show_help(
    line: Res<HelpLine>,
    settings: Res<FlockSettings>,
    mut help: Single<(&mut Text2d, &mut Transform), With<HelpText>>,
) {
    let (text, transform) = &mut *help;
    let corner = Vec2::new(settings.config.bounds.min.x, settings.config.bounds.max.y);
    transform.translation = (corner + Vec2::new(12.0, -10.0)).extend(10.0);
    if text.0 != line.0 {
        text.0.clone_from(&line.0);
    }
}
