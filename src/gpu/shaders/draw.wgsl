// The GPU flock drawn from its boid buffer, read as per-instance data and turned to each
// boid's velocity. 2D: one quad of the prefab's sprite per boid ([x, y, vx, vy]; the sprite
// points along +x). 3D (`FLOCK_3D`): the prefab's mesh per boid ([x, y, z, _, vx, vy, vz, _];
// the mesh points along -z with +y up), lit by the scene's first directional light and ambient
// light as a matte surface, times the camera's exposure, and fogged by the camera's fog.

struct View {
    clip_from_world: mat4x4<f32>,
    // One colour for every boid (linear RGBA).
    color: vec4<f32>,
    // [random hue: 1 or 0, saturation, lightness, alpha].
    hue: vec4<f32>,
    // 2D: the sprite's size in world units in x and y. 3D: the direction towards the light.
    shape: vec4<f32>,
    // 3D only (zero in 2D). The light's linear colour x illuminance x exposure.
    sun: vec4<f32>,
    // The ambient light's linear colour x brightness x exposure.
    ambient: vec4<f32>,
    // The camera's position (xyz) and the fog's mode in w: 0 none, 1 linear, 2 exponential,
    // 3 exponential squared, 4 atmospheric.
    camera: vec4<f32>,
    fog_color: vec4<f32>,
    // [start, end, density, _]; atmospheric fog: the extinction (xyz).
    fog: vec4<f32>,
    // Atmospheric fog's inscattering (xyz).
    fog_inscattering: vec4<f32>,
    // How many species colours (x), then the colours (linear RGBA); none: `color` and `hue`.
    species: vec4<f32>,
    species_colors: array<vec4<f32>, 8>,
}

@group(0) @binding(0) var<uniform> view: View;

// A well-mixed hash of the boid's index (PCG), so neighbouring boids get unrelated hues.
fn hash(index: u32) -> u32 {
    let state = index * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        return c / 12.92;
    }
    return pow((c + 0.055) / 1.055, 2.4);
}

// HSL (hue in turns) to linear RGB, as `Color::hsl` converts.
fn hsl_to_linear(hue: f32, saturation: f32, lightness: f32) -> vec3<f32> {
    let chroma = (1.0 - abs(2.0 * lightness - 1.0)) * saturation;
    let k = (vec3<f32>(0.0, 8.0, 4.0) + hue * 12.0) % 12.0;
    let srgb = lightness - chroma * 0.5 * clamp(min(k - 3.0, 9.0 - k), vec3(-1.0), vec3(1.0));
    return vec3(srgb_to_linear(srgb.x), srgb_to_linear(srgb.y), srgb_to_linear(srgb.z));
}

fn boid_color(boid: u32, species: u32) -> vec4<f32> {
    let colors = u32(view.species.x);
    if colors > 0u {
        return view.species_colors[min(species, colors - 1u)];
    }
    if view.hue.x == 0.0 {
        return view.color;
    }
    let hue = f32(hash(boid) & 0xffffu) / 65536.0;
    return vec4(hsl_to_linear(hue, view.hue.y, view.hue.z), view.hue.w);
}

#ifdef FLOCK_3D

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec4<f32>,
    @location(2) world: vec3<f32>,
}

const PI: f32 = 3.141592653589793;

// Bevy's distance fog (bevy_pbr's fog.wgsl), without the light's scattering.
fn fogged(color: vec4<f32>, world: vec3<f32>) -> vec4<f32> {
    let mode = view.camera.w;
    let distance = length(world - view.camera.xyz);
    if mode == 1.0 {
        let start = view.fog.x;
        let end = view.fog.y;
        let amount = 1.0 - clamp((end - distance) / (end - start), 0.0, 1.0);
        return vec4(mix(color.rgb, view.fog_color.rgb, amount * view.fog_color.a), color.a);
    } else if mode == 2.0 {
        let amount = 1.0 - 1.0 / exp(distance * view.fog.z);
        return vec4(mix(color.rgb, view.fog_color.rgb, amount * view.fog_color.a), color.a);
    } else if mode == 3.0 {
        let amount = 1.0 - 1.0 / exp(pow(distance * view.fog.z, 2.0));
        return vec4(mix(color.rgb, view.fog_color.rgb, amount * view.fog_color.a), color.a);
    } else if mode == 4.0 {
        let extinction = 1.0 - 1.0 / exp(distance * view.fog.xyz);
        let inscattering = 1.0 - 1.0 / exp(distance * view.fog_inscattering.xyz);
        let rgb = color.rgb * (1.0 - extinction * view.fog_color.a)
            + view.fog_color.rgb * inscattering * view.fog_color.a;
        return vec4(rgb, color.a);
    }
    return color;
}

@vertex
fn vertex(
    @builtin(instance_index) boid: u32,
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) boid_position: vec4<f32>,
    @location(3) boid_velocity: vec4<f32>,
    @location(4) species: u32,
) -> Varyings {
    // The boid's frame: forward along its velocity, up as near +y as it can be (as
    // `Transform::looking_to(velocity, Vec3::Y)` turns a CPU boid).
    let speed = length(boid_velocity.xyz);
    var forward = vec3<f32>(0.0, 0.0, -1.0);
    if speed > 0.0 {
        forward = boid_velocity.xyz / speed;
    }
    var right = cross(forward, vec3<f32>(0.0, 1.0, 0.0));
    if dot(right, right) < 1e-8 {
        // Flying straight up or down: any side will do.
        right = vec3<f32>(1.0, 0.0, 0.0);
    }
    right = normalize(right);
    let up = cross(right, forward);
    let turn = mat3x3<f32>(right, up, -forward);

    var out: Varyings;
    let world = boid_position.xyz + turn * position;
    out.clip = view.clip_from_world * vec4<f32>(world, 1.0);
    out.normal = turn * normal;
    out.color = boid_color(boid, species);
    out.world = world;
    return out;
}

@fragment
fn fragment(in: Varyings) -> @location(0) vec4<f32> {
    // Lambert: albedo / pi x the light's illuminance x cos(angle), plus albedo x ambient.
    let facing = max(dot(normalize(in.normal), normalize(view.shape.xyz)), 0.0);
    let light = view.sun.rgb * facing / PI + view.ambient.rgb;
    return fogged(vec4<f32>(in.color.rgb * light, in.color.a), in.world);
}

#else

@group(0) @binding(1) var sprite: texture_2d<f32>;
@group(0) @binding(2) var sprite_sampler: sampler;

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
}

@vertex
fn vertex(
    @builtin(vertex_index) vertex: u32,
    @builtin(instance_index) boid: u32,
    @location(0) state: vec4<f32>,
    @location(1) species: u32,
) -> Varyings {
    // Two triangles: corners 0 1 2 and 2 1 3 of the unit square, corner c at (c & 1, c >> 1).
    let corners = array<u32, 6>(0u, 1u, 2u, 2u, 1u, 3u);
    let corner = corners[vertex];
    let unit = vec2<f32>(f32(corner & 1u), f32(corner >> 1u));
    let local = (unit - 0.5) * view.shape.xy;

    let speed = length(state.zw);
    var heading = vec2<f32>(1.0, 0.0);
    if speed > 0.0 {
        heading = state.zw / speed;
    }
    let side = vec2<f32>(-heading.y, heading.x);
    let world = state.xy + heading * local.x + side * local.y;

    var out: Varyings;
    // At the flock's depth (`shape.z`), as sprites are at their translation's z.
    out.clip = view.clip_from_world * vec4<f32>(world, view.shape.z, 1.0);
    // Images run top to bottom: the sprite's top row is at +y.
    out.uv = vec2<f32>(unit.x, 1.0 - unit.y);
    out.color = boid_color(boid, species);
    return out;
}

@fragment
fn fragment(in: Varyings) -> @location(0) vec4<f32> {
    return textureSample(sprite, sprite_sampler, in.uv) * in.color;
}

#endif
