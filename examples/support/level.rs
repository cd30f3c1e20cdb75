//! The level of the crowd scenes (`level_crowd` in 2D, `level_crowd_3d` on a floor): four rooms
//! and a hall with pillars on a 1280 x 720 floor plan, joined by doors; where a crowd is sent in
//! turn; and what the scenes report: arrivals against the straight-line bound, and the closest
//! two agents. Everything here is on the floor plan (x and y; x and z in 3D).

use bevy::prelude::*;

/// Half the floor's width and depth.
pub const HALF_WIDTH: f32 = 640.0;
pub const HALF_DEPTH: f32 = 360.0;

/// Half a wall's thickness, and half a door's width.
const WALL: f32 = 8.0;
const DOOR: f32 = 34.0;

/// The walls between the rooms and the hall: x of the two walls across the floor.
const HALL_SIDE: f32 = 213.0;

/// The walls, as rectangles (centre, half size): two walls across the floor with two doors
/// each, between the hall and the rooms; a wall with one door splitting each side into two
/// rooms.
pub fn walls() -> Vec<(Vec2, Vec2)> {
    let mut pieces = Vec::new();
    for x in [-HALL_SIDE, HALL_SIDE] {
        wall(
            &mut pieces,
            |along| Vec2::new(x, along),
            -HALF_DEPTH,
            HALF_DEPTH,
            &[-180.0, 180.0],
        );
    }
    wall(
        &mut pieces,
        |along| Vec2::new(along, 0.0),
        -HALF_WIDTH,
        -HALL_SIDE,
        &[-430.0],
    );
    wall(
        &mut pieces,
        |along| Vec2::new(along, 0.0),
        HALL_SIDE,
        HALF_WIDTH,
        &[430.0],
    );
    pieces
}

/// The pieces of a straight wall from `from` to `to` along the line `at` draws, with doors
/// centred on `doors`.
fn wall(
    pieces: &mut Vec<(Vec2, Vec2)>,
    at: impl Fn(f32) -> Vec2,
    from: f32,
    to: f32,
    doors: &[f32],
) {
    let mut start = from;
    let ends = doors.iter().map(|door| door - DOOR).chain([to]);
    let starts: Vec<f32> = doors.iter().map(|door| door + DOOR).collect();
    for (index, end) in ends.enumerate() {
        let direction = at(1.0) - at(0.0);
        let half_size = direction.abs() * (end - start) / 2.0 + direction.perp().abs() * WALL;
        pieces.push((at((start + end) / 2.0), half_size));
        start = starts.get(index).copied().unwrap_or(to);
    }
}

/// The pillars in the hall: centre and radius.
pub fn pillars() -> [(Vec2, f32); 4] {
    [
        (Vec2::new(0.0, 170.0), 34.0),
        (Vec2::new(0.0, -170.0), 34.0),
        (Vec2::new(-90.0, 0.0), 26.0),
        (Vec2::new(90.0, 0.0), 26.0),
    ]
}

/// The places the crowd is sent to in turn: the far rooms first, then the hall.
pub const GOALS: [Vec2; 5] = [
    Vec2::new(426.0, -180.0),
    Vec2::new(-426.0, 180.0),
    Vec2::new(426.0, 180.0),
    Vec2::new(0.0, 0.0),
    Vec2::new(-426.0, -180.0),
];

/// Where the crowd starts: the two rooms on the left.
pub fn start_rooms() -> [Rect; 2] {
    let room = |y0: f32, y1: f32| Rect::new(-HALF_WIDTH + 30.0, y0, -HALL_SIDE - 30.0, y1);
    [
        room(20.0, HALF_DEPTH - 20.0),
        room(-HALF_DEPTH + 20.0, -20.0),
    ]
}

/// Places for `count` agents round `centre`, `spacing` apart on a grid, nearest first, only
/// where `walkable` says an agent can stand: the crowd spreads over the floor round the
/// destination instead of crushing onto one point.
pub fn places_round(
    centre: Vec2,
    count: usize,
    spacing: f32,
    walkable: impl Fn(Vec2) -> bool,
) -> Vec<Vec2> {
    let mut reach = (count as f32).sqrt().ceil() as i32;
    loop {
        let mut places: Vec<Vec2> = (-reach..=reach)
            .flat_map(|i| (-reach..=reach).map(move |j| Vec2::new(i as f32, j as f32)))
            .map(|cell| centre + cell * spacing)
            .filter(|&place| walkable(place))
            .collect();
        if places.len() >= count || reach > 4 * (count as i32 + 1) {
            places.sort_by(|a, b| {
                a.distance_squared(centre)
                    .total_cmp(&b.distance_squared(centre))
            });
            places.truncate(count);
            return places;
        }
        reach *= 2;
    }
}

/// The distance between the two closest of `points`, through a grid of `cell`-wide cells (any
/// pair closer than `cell` is found); `f32::INFINITY` when none is that close.
pub fn closest_pair(points: &[Vec2], cell: f32) -> f32 {
    use std::collections::HashMap;
    let key = |p: Vec2| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (index, &point) in points.iter().enumerate() {
        cells.entry(key(point)).or_default().push(index);
    }
    let mut closest = f32::INFINITY;
    for (index, &point) in points.iter().enumerate() {
        let (x, y) = key(point);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for &other in cells.get(&(x + dx, y + dy)).into_iter().flatten() {
                    if other > index {
                        closest = closest.min(point.distance(points[other]));
                    }
                }
            }
        }
    }
    closest
}

/// One trip of the crowd: when it was sent, the straight-line bound (the farthest agent's
/// straight walk at top speed) and when the last one arrived.
#[derive(Resource, Default)]
pub struct Trip {
    pub goal: usize,
    pub sent_at: f32,
    pub bound: f32,
    pub all_arrived_after: Option<f32>,
    pub arrived: usize,
    pub crowd: usize,
    pub closest: f32,
}

impl Trip {
    /// A trip started at `now` by agents going from the first of each pair to the second at
    /// `speed`.
    pub fn start(
        goal: usize,
        now: f32,
        legs: impl Iterator<Item = (Vec2, Vec2)>,
        speed: f32,
    ) -> Self {
        let (mut crowd, mut longest) = (0, 0.0_f32);
        for (from, to) in legs {
            crowd += 1;
            longest = longest.max(from.distance(to));
        }
        Self {
            goal,
            sent_at: now,
            bound: longest / speed,
            crowd,
            closest: f32::INFINITY,
            ..default()
        }
    }

    /// Where the crowd goes at `now` (the goal's index and the centre of its places), if
    /// anywhere: to `click` (a point on the floor plan) if there was one, for the same goal;
    /// else, once the level is `ready`, to the first goal on the first trip, and to the next
    /// goal once the whole crowd has arrived and a second has passed.
    pub fn next_destination(
        &self,
        now: f32,
        click: Option<Vec2>,
        ready: bool,
    ) -> Option<(usize, Vec2)> {
        let first_trip = self.crowd == 0;
        let rested = self
            .all_arrived_after
            .is_some_and(|after| now > self.sent_at + after + 1.0);
        match click {
            Some(point) => Some((self.goal, point)),
            None if (first_trip || rested) && ready => {
                let next = if first_trip {
                    0
                } else {
                    (self.goal + 1) % GOALS.len()
                };
                Some((next, GOALS[next]))
            }
            None => None,
        }
    }

    /// `arrived` of the crowd are there at `now`; the closest two agents are `closest` apart.
    pub fn update(&mut self, now: f32, arrived: usize, closest: f32) {
        self.arrived = arrived;
        self.closest = self.closest.min(closest);
        if arrived >= self.crowd && self.all_arrived_after.is_none() {
            self.all_arrived_after = Some(now - self.sent_at);
        }
    }

    /// The numbers the scenes show.
    pub fn summary(&self, now: f32, body: f32) -> String {
        let time = match self.all_arrived_after {
            Some(after) => format!("all in {after:.1} s"),
            None => format!("{:.1} s", now - self.sent_at),
        };
        format!(
            "{}/{} arrived, {time} (straight line {:.1} s); closest {:.1} (bodies {body:.0})",
            self.arrived, self.crowd, self.bound, self.closest
        )
    }
}
