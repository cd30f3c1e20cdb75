//! RVO2's obstacle k-d tree (its `KdTree::buildObstacleTree` and `queryObstacleTreeRecursive`):
//! a binary space partition whose every node is an obstacle edge, splitting the plane along
//! that edge's line. Each node's edge is the one that leaves the fewest edges on the larger
//! side; an edge crossing the line is cut in two there, adding a vertex, so that every edge
//! lies wholly on one side. The cuts change which edges an agent sees (it sees an edge only
//! from its outer side, and a cut edge by its pieces), so for velocities that agree with RVO2's
//! they are made exactly as RVO2 makes them.
//!
//! A query walks the agent's side first and the other side only when the line is within reach,
//! collecting the edges within reach that the agent faces from outside (to their right, the
//! polygons being counter-clockwise), sorted by squared distance as RVO2's
//! `Agent::insertObstacleNeighbor` sorts them (an insertion that keeps earlier equals first).

use super::lines::RVO_EPSILON;
use super::obstacles::{ObstacleVertex, left_of};
use crate::math::Vector;

/// No node.
const NONE: u32 = u32::MAX;

/// A node: its edge (the vertex it starts at) and the subtrees to the edge's left and right.
#[derive(Clone, Copy, Debug)]
struct Node {
    vertex: u32,
    left: u32,
    right: u32,
}

/// The tree over a set of linked polygons' edges.
#[derive(Clone, Debug)]
pub(super) struct ObstacleTree {
    nodes: Vec<Node>,
    root: u32,
}

impl Default for ObstacleTree {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            root: NONE,
        }
    }
}

/// Where the edge from `j1` to `j2` lies relative to the line through `i1` and `i2`, by RVO2's
/// test (within `RVO_EPSILON` of the line counts as on either side).
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Left,
    Right,
    /// Across the line: (how far left `j1` is).
    Both(f32),
}

fn side(i1: Vector, i2: Vector, j1: Vector, j2: Vector) -> Side {
    let j1_left = left_of(i1, i2, j1);
    let j2_left = left_of(i1, i2, j2);
    if j1_left >= -RVO_EPSILON && j2_left >= -RVO_EPSILON {
        Side::Left
    } else if j1_left <= RVO_EPSILON && j2_left <= RVO_EPSILON {
        Side::Right
    } else {
        Side::Both(j1_left)
    }
}

/// RVO2's order on split candidates: the larger side first, then the smaller.
fn balance(left: usize, right: usize) -> (usize, usize) {
    (left.max(right), left.min(right))
}

impl ObstacleTree {
    /// The tree over every edge of `vertices`, cutting edges (and adding vertices to the list)
    /// where RVO2 cuts them.
    pub fn build(vertices: &mut Vec<ObstacleVertex>) -> Self {
        let mut tree = Self {
            nodes: Vec::with_capacity(vertices.len()),
            root: NONE,
        };
        let all: Vec<u32> = (0..vertices.len() as u32).collect();
        tree.root = tree.build_node(vertices, all);
        tree
    }

    /// RVO2's `buildObstacleTreeRecursive` over the edges starting at `edges`.
    fn build_node(&mut self, vertices: &mut Vec<ObstacleVertex>, edges: Vec<u32>) -> u32 {
        if edges.is_empty() {
            return NONE;
        }
        let ends = |vertices: &[ObstacleVertex], edge: u32| {
            let start = vertices[edge as usize];
            (start.point, vertices[start.next as usize].point)
        };
        // The edge leaving the fewest on its larger side, then on its smaller; the first of
        // equals. A candidate stops counting once it cannot beat the best so far.
        let mut optimal = 0;
        let (mut min_left, mut min_right) = (edges.len(), edges.len());
        for (i, &edge_i) in edges.iter().enumerate() {
            let (i1, i2) = ends(vertices, edge_i);
            let (mut left, mut right) = (0, 0);
            for (j, &edge_j) in edges.iter().enumerate() {
                if i == j {
                    continue;
                }
                let (j1, j2) = ends(vertices, edge_j);
                match side(i1, i2, j1, j2) {
                    Side::Left => left += 1,
                    Side::Right => right += 1,
                    Side::Both(_) => {
                        left += 1;
                        right += 1;
                    }
                }
                if balance(left, right) >= balance(min_left, min_right) {
                    break;
                }
            }
            if balance(left, right) < balance(min_left, min_right) {
                (min_left, min_right) = (left, right);
                optimal = i;
            }
        }

        let split = edges[optimal];
        let (i1, i2) = ends(vertices, split);
        let mut lefts = Vec::with_capacity(min_left);
        let mut rights = Vec::with_capacity(min_right);
        for (j, &edge_j) in edges.iter().enumerate() {
            if j == optimal {
                continue;
            }
            let start = vertices[edge_j as usize];
            let (j1, j2) = (start.point, vertices[start.next as usize].point);
            match side(i1, i2, j1, j2) {
                Side::Left => lefts.push(edge_j),
                Side::Right => rights.push(edge_j),
                Side::Both(j1_left) => {
                    // Cut edge j where it crosses the line: a new vertex, convex (the outline
                    // goes straight on), with the edge's direction.
                    let t = (i2 - i1).perp_dot(j1 - i1) / (i2 - i1).perp_dot(j1 - j2);
                    let cut = vertices.len() as u32;
                    vertices.push(ObstacleVertex {
                        point: j1 + (j2 - j1) * t,
                        direction: start.direction,
                        next: start.next,
                        previous: edge_j,
                        convex: true,
                    });
                    vertices[start.next as usize].previous = cut;
                    vertices[edge_j as usize].next = cut;
                    if j1_left > 0.0 {
                        lefts.push(edge_j);
                        rights.push(cut);
                    } else {
                        rights.push(edge_j);
                        lefts.push(cut);
                    }
                }
            }
        }
        let node = self.nodes.len() as u32;
        self.nodes.push(Node {
            vertex: split,
            left: NONE,
            right: NONE,
        });
        let left = self.build_node(vertices, lefts);
        let right = self.build_node(vertices, rights);
        self.nodes[node as usize].left = left;
        self.nodes[node as usize].right = right;
        node
    }

    /// The edges an agent at `position` sees within `range_squared` (squared distance to the
    /// edge), as (squared distance, edge's first vertex), nearest first: RVO2's
    /// `computeObstacleNeighbors`. `found` is cleared first.
    pub fn query(
        &self,
        vertices: &[ObstacleVertex],
        position: Vector,
        range_squared: f32,
        found: &mut Vec<(f32, u32)>,
    ) {
        found.clear();
        self.query_node(self.root, vertices, position, range_squared, found);
    }

    fn query_node(
        &self,
        node: u32,
        vertices: &[ObstacleVertex],
        position: Vector,
        range_squared: f32,
        found: &mut Vec<(f32, u32)>,
    ) {
        let Some(&Node {
            vertex,
            left,
            right,
        }) = self.nodes.get(node as usize)
        else {
            return;
        };
        let start = vertices[vertex as usize];
        let end = vertices[start.next as usize].point;
        let agent_left = left_of(start.point, end, position);
        let (near, far) = if agent_left >= 0.0 {
            (left, right)
        } else {
            (right, left)
        };
        self.query_node(near, vertices, position, range_squared, found);
        let line_squared = agent_left * agent_left / (end - start.point).length_squared();
        if line_squared < range_squared {
            if agent_left < 0.0 {
                // The edge faces the agent (it is on the edge's outer side).
                insert_neighbour(start.point, end, vertex, position, range_squared, found);
            }
            self.query_node(far, vertices, position, range_squared, found);
        }
    }
}

/// RVO2's squared distance from `position` to the segment from `a` to `b`
/// (`Agent::insertObstacleNeighbor`'s).
pub(super) fn distance_squared_to_edge(a: Vector, b: Vector, position: Vector) -> f32 {
    let r = (position - a).dot(b - a) / (b - a).length_squared();
    if r < 0.0 {
        (position - a).length_squared()
    } else if r > 1.0 {
        (position - b).length_squared()
    } else {
        (position - (a + (b - a) * r)).length_squared()
    }
}

/// RVO2's `insertObstacleNeighbor`: the edge joins `found` if within range, after every edge
/// as near or nearer.
fn insert_neighbour(
    a: Vector,
    b: Vector,
    vertex: u32,
    position: Vector,
    range_squared: f32,
    found: &mut Vec<(f32, u32)>,
) {
    let distance_squared = distance_squared_to_edge(a, b, position);
    if distance_squared < range_squared {
        let slot = found.partition_point(|&(other, _)| other <= distance_squared);
        found.insert(slot, (distance_squared, vertex));
    }
}

#[cfg(test)]
mod tests {
    use super::super::obstacles::{OrcaObstacles, left_of};
    use super::*;
    use crate::steering::orca::test_random::unit;

    /// Random star-shaped polygons (simple, often not convex), counter-clockwise, one per cell
    /// of a 4 x 4 grid of cells 10 wide, and a few open segments between them.
    fn random_outlines(state: &mut u64) -> Vec<Vec<Vector>> {
        let mut outlines = Vec::new();
        for cell in 0..16 {
            let centre = Vector::new((cell % 4) as f32 * 10.0, (cell / 4) as f32 * 10.0)
                + Vector::new(unit(state), unit(state));
            if cell % 5 == 4 {
                let a = centre + Vector::new(unit(state) - 2.0, unit(state) * 4.0 - 2.0);
                let b = centre + Vector::new(unit(state) + 1.5, unit(state) * 4.0 - 2.0);
                outlines.push(vec![a, b]);
                continue;
            }
            let count = 3 + (unit(state) * 6.0) as usize;
            let outline = (0..count)
                .map(|index| {
                    let angle =
                        (index as f32 + 0.8 * unit(state)) / count as f32 * std::f32::consts::TAU;
                    let radius = 1.0 + 3.0 * unit(state);
                    centre + Vector::new(angle.cos(), angle.sin()) * radius
                })
                .collect();
            outlines.push(outline);
        }
        outlines
    }

    #[test]
    fn the_query_finds_the_edges_a_brute_force_scan_finds_in_the_same_order() {
        let mut state = 11;
        let mut checked = 0;
        for _ in 0..20 {
            let obstacles = OrcaObstacles::from_polygons(&random_outlines(&mut state)).unwrap();
            let vertices = obstacles.vertices();
            let mut found = Vec::new();
            for _ in 0..200 {
                let position =
                    Vector::new(unit(&mut state) * 50.0 - 5.0, unit(&mut state) * 50.0 - 5.0);
                let range = 1.0 + unit(&mut state) * 15.0;
                let range_squared = range * range;
                obstacles
                    .tree()
                    .query(vertices, position, range_squared, &mut found);
                // Every edge the agent faces from outside, within range, stably by distance.
                let mut expected: Vec<(f32, u32)> = (0..vertices.len() as u32)
                    .filter_map(|index| {
                        let start = vertices[index as usize];
                        let end = vertices[start.next as usize].point;
                        let distance = distance_squared_to_edge(start.point, end, position);
                        (left_of(start.point, end, position) < 0.0 && distance < range_squared)
                            .then_some((distance, index))
                    })
                    .collect();
                expected.sort_by(|a, b| a.0.total_cmp(&b.0));
                assert!(
                    found.windows(2).all(|pair| pair[0].0 <= pair[1].0),
                    "nearest first"
                );
                // Equal distances (two edges meeting at the nearest vertex) may come in either
                // order: compare by distance, then index.
                let mut sorted = found.clone();
                sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                assert_eq!(sorted, expected, "at {position} within {range}");
                checked += expected.len();
            }
        }
        assert!(checked > 1000, "the queries found edges: {checked}");
    }

    #[test]
    fn every_edge_is_one_node_and_splitting_keeps_every_outline() {
        let mut state = 5;
        let mut splits = 0;
        for _ in 0..20 {
            let outlines = random_outlines(&mut state);
            let obstacles = OrcaObstacles::from_polygons(&outlines).unwrap();
            let vertices = obstacles.vertices();
            let tree = obstacles.tree();
            let mut nodes: Vec<u32> = tree.nodes.iter().map(|node| node.vertex).collect();
            nodes.sort_unstable();
            assert_eq!(nodes, (0..vertices.len() as u32).collect::<Vec<_>>());
            let given: usize = outlines.iter().map(Vec::len).sum();
            splits += vertices.len() - given;
            // Walk each outline from its first vertex: the given vertices in order, and between
            // two of them only points on the edge joining them, with its direction.
            let mut first = 0;
            for outline in &outlines {
                let mut at = first;
                for (index, &vertex) in outline.iter().enumerate() {
                    let next = outline[(index + 1) % outline.len()];
                    assert_eq!(vertices[at].point, vertex);
                    let direction = vertices[at].direction;
                    loop {
                        let here = vertices[at];
                        assert_eq!(vertices[here.next as usize].previous, at as u32);
                        at = here.next as usize;
                        if at < given {
                            break;
                        }
                        // An added vertex: on the edge, going the edge's way, convex.
                        let added = vertices[at];
                        assert!(added.convex && added.direction == direction);
                        let along = (added.point - vertex).dot(next - vertex)
                            / (next - vertex).length_squared();
                        let off =
                            left_of(vertex, next, added.point).abs() / (next - vertex).length();
                        assert!((0.0..=1.0).contains(&along) && off < 1e-4, "{off}");
                    }
                    assert_eq!(vertices[at].point, next);
                }
                assert_eq!(at, first, "the outline closes");
                first += outline.len();
            }
        }
        assert!(splits > 20, "the trees split edges: {splits}");
    }
}
