//! What a device must offer the kernel, and how many boids it holds: read from its limits, so
//! a caller (the Bevy plugin, the command line) knows both before it makes a flock or a boid.

use crate::containment::ENCLOSURE_BYTES;
use crate::error::GpuError;
use crate::grid::{MIN_CELL_CAP, SCAN_BLOCK};
use crate::layout::BOID_BYTES;
use crate::obstacles::OBSTACLES_BYTES;
use crate::points::POINTS_BYTES;
use crate::species::KINDS_BYTES;

/// Storage buffers the kernel binds to its compute passes (boids, sorted boids, sorted index,
/// each boid's cell and rank in it, the fitted grid, scattered index, cell starts, scan block
/// sums): the
/// WebGPU default for `max_storage_buffers_per_shader_stage`.
pub(crate) const STORAGE_BUFFERS: u32 = 8;
/// Invocations per workgroup in every pass (`WORKGROUP_SIZE` in shaders/common.wgsl).
pub(crate) const WORKGROUP_SIZE: u32 = 256;
/// Workgroup memory the scan uses: one `u32` per invocation.
const WORKGROUP_BYTES: u32 = WORKGROUP_SIZE * 4;
/// The most workgroups along one dispatch axis that every device allows; a device may allow
/// fewer, never more is used.
pub(crate) const MAX_GROUPS_PER_AXIS: u32 = 65535;
/// The most boids the kernel holds on any device: see [`max_boids`].
pub const MAX_BOIDS: usize = 1 << 31;
/// The largest uniform the steering binds: the obstacles (obstacles.rs, about 9 KiB), larger
/// than the params (params.rs: 176 bytes), the species (species.rs), the points (points.rs)
/// and the enclosure (containment.rs); WebGPU guarantees 64 KiB, its downlevel limits 16 KiB.
const UNIFORM_BYTES: u64 = max(
    max(OBSTACLES_BYTES, ENCLOSURE_BYTES),
    max(POINTS_BYTES, KINDS_BYTES),
);
/// Uniform buffers the steering binds: the params, the species, the points, the obstacles,
/// the enclosure.
const UNIFORM_BUFFERS: u32 = 5;

const fn max(a: u64, b: u64) -> u64 {
    if a > b { a } else { b }
}
/// Workgroups the scan's second level dispatches along x: one per block of 1024 block totals
/// (`SCAN_BLOCK` in shaders/grid.wgsl); the first level comes in rows past the device's limit.
const SCAN_BLOCKS: u32 = SCAN_BLOCK;

/// Whether a device with these limits can run the flock: compute shaders (1024 workgroups
/// along an axis, for the scan), eight storage buffers per shader stage, 256 invocations per
/// workgroup, room for the grid's cell starts. The error names what is missing; a device
/// without compute shaders (a WebGL2-class adapter) has no compute workgroups at all.
pub fn check_limits(limits: &wgpu::Limits) -> Result<(), GpuError> {
    let needs: [(&str, u64, u64); 10] = [
        (
            "compute workgroups per dimension (compute shaders)",
            SCAN_BLOCKS.into(),
            limits.max_compute_workgroups_per_dimension.into(),
        ),
        (
            "storage buffers per shader stage",
            STORAGE_BUFFERS.into(),
            limits.max_storage_buffers_per_shader_stage.into(),
        ),
        (
            "invocations per workgroup",
            WORKGROUP_SIZE.into(),
            limits.max_compute_invocations_per_workgroup.into(),
        ),
        (
            "workgroup size along x",
            WORKGROUP_SIZE.into(),
            limits.max_compute_workgroup_size_x.into(),
        ),
        (
            "bytes of workgroup memory",
            WORKGROUP_BYTES.into(),
            limits.max_compute_workgroup_storage_size.into(),
        ),
        ("bind groups", 1, limits.max_bind_groups.into()),
        (
            "bindings per bind group",
            u64::from(STORAGE_BUFFERS) + 1,
            limits.max_bindings_per_bind_group.into(),
        ),
        (
            "uniform buffers per shader stage",
            UNIFORM_BUFFERS.into(),
            limits.max_uniform_buffers_per_shader_stage.into(),
        ),
        (
            "bytes per uniform buffer binding",
            UNIFORM_BYTES,
            limits.max_uniform_buffer_binding_size,
        ),
        (
            "bytes per storage buffer binding (the smallest grid's cell starts)",
            (MIN_CELL_CAP + 1) * 4,
            limits
                .max_storage_buffer_binding_size
                .min(limits.max_buffer_size),
        ),
    ];
    match needs.iter().find(|(_, needed, has)| has < needed) {
        Some((what, needed, has)) => Err(GpuError::Unsupported(format!(
            "it needs {needed} {what}, and has {has}"
        ))),
        None => Ok(()),
    }
}

/// The most boids a device with these limits holds: as many as its largest storage buffer
/// binding takes, at most 2^31 (the shaders index boids, and a dispatch's invocations padded
/// to whole rows of workgroups, with `u32`), and at most what two-dimensional dispatches of its
/// workgroups reach. Zero when [`check_limits`] refuses it.
pub fn max_boids(limits: &wgpu::Limits) -> usize {
    if check_limits(limits).is_err() {
        return 0;
    }
    let largest_buffer = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    let groups = u64::from(groups_per_axis(limits));
    let dispatched = groups * groups * u64::from(WORKGROUP_SIZE);
    let boids = (largest_buffer / BOID_BYTES as u64)
        .min(dispatched)
        .min(MAX_BOIDS as u64);
    usize::try_from(boids).unwrap_or(usize::MAX)
}

/// Workgroups a dispatch may use along one axis on this device.
pub(crate) fn groups_per_axis(limits: &wgpu::Limits) -> u32 {
    limits
        .max_compute_workgroups_per_dimension
        .min(MAX_GROUPS_PER_AXIS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_webgpu_defaults_run_the_flock_and_hold_millions() {
        let limits = wgpu::Limits::default();
        assert_eq!(check_limits(&limits), Ok(()));
        // 128 MiB bindings.
        assert_eq!(max_boids(&limits), (128 << 20) / BOID_BYTES);
    }

    #[test]
    fn a_device_without_compute_shaders_is_refused_by_name() {
        let error = check_limits(&wgpu::Limits::downlevel_webgl2_defaults()).unwrap_err();
        assert!(error.to_string().contains("compute shaders"), "{error}");
        assert_eq!(max_boids(&wgpu::Limits::downlevel_webgl2_defaults()), 0);
    }

    #[test]
    fn too_few_storage_buffers_or_a_small_workgroup_are_refused() {
        let few_buffers = wgpu::Limits {
            max_storage_buffers_per_shader_stage: 4,
            ..wgpu::Limits::default()
        };
        let error = check_limits(&few_buffers).unwrap_err();
        assert!(
            error.to_string().contains("needs 8 storage buffers")
                && error.to_string().contains("has 4"),
            "{error}"
        );
        let small_groups = wgpu::Limits {
            max_compute_invocations_per_workgroup: 128,
            ..wgpu::Limits::default()
        };
        assert!(matches!(
            check_limits(&small_groups),
            Err(GpuError::Unsupported(_))
        ));
    }

    #[test]
    fn the_largest_buffer_and_the_dispatch_bound_the_boids() {
        let huge = wgpu::Limits {
            max_storage_buffer_binding_size: u64::MAX,
            max_buffer_size: u64::MAX,
            ..wgpu::Limits::default()
        };
        assert_eq!(max_boids(&huge), 1 << 31);
        // The fewest workgroups per axis the scan allows: 1024 x 1024 workgroups of 256.
        let narrow = wgpu::Limits {
            max_compute_workgroups_per_dimension: 1024,
            ..huge
        };
        assert_eq!(max_boids(&narrow), 1024 * 1024 * 256);
        let fewer = wgpu::Limits {
            max_compute_workgroups_per_dimension: 1023,
            ..huge
        };
        assert!(check_limits(&fewer).is_err());
        assert_eq!(max_boids(&fewer), 0);
        // 64 MiB buffers: the boids fill them (the grid's cells are capped to what fits).
        let small_buffers = wgpu::Limits {
            max_buffer_size: 64 << 20,
            ..wgpu::Limits::default()
        };
        assert_eq!(max_boids(&small_buffers), (64 << 20) / BOID_BYTES);
        // 16 KiB buffers cannot hold the smallest grid's cell starts: no flock at all, so no
        // boids.
        let tiny_buffers = wgpu::Limits {
            max_buffer_size: 16 << 10,
            ..wgpu::Limits::default()
        };
        let error = check_limits(&tiny_buffers).unwrap_err();
        assert!(error.to_string().contains("cell starts"), "{error}");
        assert_eq!(max_boids(&tiny_buffers), 0);
    }
}
