//! Drawing the GPU flock straight from its boid buffer: one instanced draw per camera, the
//! buffer bound as per-instance vertex data, so no boid passes through the CPU.
//!
//! - 2D: each boid a quad of the prefab's sprite, turned to its velocity, drawn as one item of
//!   Bevy's transparent 2D phase at the flock's z (`GpuFlock::draw_depth`),
//!   so it sorts with the app's sprites, text and 2D meshes by depth and is depth-tested
//!   against the opaque 2D pass, as a sprite is.
//! - 3D: each boid the prefab's mesh, turned to its velocity with +y up, depth-tested against
//!   the scene after Bevy's opaque pass, lit as Bevy lights a matte material (Lambert's
//!   diffuse term, no specular) by the scene's first directional light and its ambient light
//!   (the camera's own where it has one), times the camera's exposure, and fogged by the
//!   camera's `DistanceFog` (every falloff; not the fog's light scattering); no shadows.
//!
//! Colours follow the prefab: one colour, or a random hue per boid drawn from its index in the
//! shader, so the colours stay put while the flock moves.

use std::collections::HashMap;
use std::num::NonZeroU64;
use std::ops::Range;

use bevy::camera::visibility::RenderLayers;
use bevy::mesh::VertexBufferLayout;
use bevy::prelude::*;
use bevy::render::render_resource::binding_types::uniform_buffer_sized;
use bevy::render::render_resource::{
    BindGroup, BindGroupEntries, BindGroupLayoutDescriptor, BindGroupLayoutEntries,
    BufferInitDescriptor, BufferUsages, CachedRenderPipelineId, ColorTargetState, ColorWrites,
    FragmentState, MultisampleState, PipelineCache, PrimitiveState, RenderPipeline,
    RenderPipelineDescriptor, ShaderStages, TextureFormat, VertexAttribute, VertexFormat,
    VertexState, VertexStepMode,
};
use bevy::render::renderer::RenderDevice;
use bevy::render::view::ExtractedView;
use bevy::shader::Shader;

use super::look::{RenderGpuLook, VIEW_UNIFORM_BYTES, ViewScene, view_uniform};
use super::stepping::RenderGpuFlock;

#[cfg(not(flock_3d))]
use bevy::{
    core_pipeline::core_2d::{CORE_2D_DEPTH_FORMAT, Transparent2d},
    math::FloatOrd,
    render::render_asset::RenderAssets,
    render::render_phase::{
        Draw, DrawError, DrawFunctions, PhaseItemExtraIndex, TrackedRenderPass,
        ViewSortedRenderPhases,
    },
    render::render_resource::binding_types::{sampler, texture_2d},
    render::render_resource::{
        BlendState, CompareFunction, DepthStencilState, SamplerBindingType, TextureSampleType,
    },
    render::sync_world::MainEntity,
    render::texture::GpuImage,
};
#[cfg(flock_3d)]
use bevy::{
    core_pipeline::core_3d::CORE_3D_DEPTH_FORMAT,
    mesh::MeshVertexBufferLayoutRef,
    pbr::DistanceFog,
    render::camera::ExtractedCamera,
    render::mesh::{RenderMesh, RenderMeshBufferInfo, allocator::MeshAllocator},
    render::render_asset::RenderAssets,
    render::render_resource::{CompareFunction, DepthStencilState, Face, StoreOp},
    render::render_resource::{RenderPassDepthStencilAttachment, RenderPassDescriptor},
    render::renderer::{RenderContext, ViewQuery},
    render::view::ViewDepthTexture,
    render::view::ViewTarget,
};

/// The drawing shader, put under this handle when the plugin is finished.
pub(crate) const DRAW_SHADER: Handle<Shader> =
    bevy::asset::uuid_handle!("5d0c2f0e-6a4b-4d1e-9c53-8f1b7b2a9e41");

/// The drawing shader's source: a sprite quad per boid in 2D, the prefab's mesh in 3D (the
/// `FLOCK_3D` shader def).
const DRAW_SOURCE: &str = include_str!("shaders/draw.wgsl");

/// Puts the drawing shader among the app's shaders (an app with a renderer has them).
pub(crate) fn add_draw_shader(app: &mut App) {
    if let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>() {
        // A UUID id: inserting never fails.
        let _ = shaders.insert(
            DRAW_SHADER.id(),
            Shader::from_wgsl(DRAW_SOURCE, "bevy_flock/gpu/draw.wgsl"),
        );
    }
}

/// What a pipeline depends on besides the shader: the view's target and, in 3D, the mesh's
/// vertex layout.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct PipelineKey {
    format: TextureFormat,
    samples: u32,
    #[cfg(flock_3d)]
    mesh_layout: MeshVertexBufferLayoutRef,
}

/// The drawing pipelines, one per kind of view (and mesh layout in 3D) met so far.
#[derive(Resource)]
pub(crate) struct GpuDrawPipelines {
    layout: BindGroupLayoutDescriptor,
    /// `None`: no pipeline can be made for that key (a mesh without normals), logged once.
    pipelines: HashMap<PipelineKey, Option<CachedRenderPipelineId>>,
    /// This frame's bind group of each view that draws the flock (2D: the phase item's draw
    /// finds it by its view).
    #[cfg(not(flock_3d))]
    view_bind_groups: HashMap<Entity, BindGroup>,
}

impl Default for GpuDrawPipelines {
    fn default() -> Self {
        let uniform = uniform_buffer_sized(false, NonZeroU64::new(VIEW_UNIFORM_BYTES));
        #[cfg(not(flock_3d))]
        let entries = BindGroupLayoutEntries::sequential(
            ShaderStages::VERTEX_FRAGMENT,
            (
                uniform,
                texture_2d(TextureSampleType::Float { filterable: true }),
                sampler(SamplerBindingType::Filtering),
            ),
        );
        #[cfg(flock_3d)]
        let entries = BindGroupLayoutEntries::single(ShaderStages::VERTEX_FRAGMENT, uniform);
        Self {
            layout: BindGroupLayoutDescriptor::new("bevy_flock gpu draw", &entries),
            pipelines: HashMap::new(),
            #[cfg(not(flock_3d))]
            view_bind_groups: HashMap::new(),
        }
    }
}

impl GpuDrawPipelines {
    /// The pipeline for `key`, queued for compiling the first time it is asked for.
    fn pipeline(
        &mut self,
        cache: &PipelineCache,
        key: PipelineKey,
    ) -> Option<CachedRenderPipelineId> {
        if let Some(id) = self.pipelines.get(&key) {
            return *id;
        }
        let id = match self.descriptor(&key) {
            Some(descriptor) => Some(cache.queue_render_pipeline(descriptor)),
            None => {
                error!(
                    "GPU flock: the prefab's mesh has no positions or normals (Float32x3); \
                     the flock is not drawn with it"
                );
                None
            }
        };
        self.pipelines.insert(key, id);
        id
    }

    /// The pipeline for `key` once it is compiled, and the view's bind group: its uniform, and
    /// in 2D the sprite.
    fn ready<'c>(
        &mut self,
        cache: &'c PipelineCache,
        device: &RenderDevice,
        key: PipelineKey,
        view: &ExtractedView,
        look: &RenderGpuLook,
        scene: &ViewScene,
        #[cfg(not(flock_3d))] image: &GpuImage,
    ) -> Option<(CachedRenderPipelineId, &'c RenderPipeline, BindGroup)> {
        let id = self.pipeline(cache, key)?;
        let pipeline = cache.get_render_pipeline(id)?;
        let uniform = view_uniform_buffer(device, view, look, scene);
        let layout = cache.get_bind_group_layout(&self.layout);
        #[cfg(not(flock_3d))]
        let entries = BindGroupEntries::sequential((
            uniform.as_entire_binding(),
            &image.texture_view,
            &image.sampler,
        ));
        #[cfg(flock_3d)]
        let entries = BindGroupEntries::single(uniform.as_entire_binding());
        let bind_group = device.create_bind_group("bevy_flock gpu draw", &layout, &entries);
        Some((id, pipeline, bind_group))
    }

    /// The pipeline's description: the boid buffer as per-instance data after the mesh's own
    /// vertices (3D), or alone with a quad made from the vertex index (2D).
    fn descriptor(&self, key: &PipelineKey) -> Option<RenderPipelineDescriptor> {
        let state = |location: u32, offset: u64| VertexAttribute {
            format: VertexFormat::Float32x4,
            offset,
            shader_location: location,
        };
        // Each boid's species, a u32 per instance, for species colours.
        let species = |location: u32| VertexBufferLayout {
            array_stride: 4,
            step_mode: VertexStepMode::Instance,
            attributes: vec![VertexAttribute {
                format: VertexFormat::Uint32,
                offset: 0,
                shader_location: location,
            }],
        };
        #[cfg(not(flock_3d))]
        let (buffers, blend, depth_stencil, cull_mode) = (
            vec![
                VertexBufferLayout {
                    array_stride: flock_gpu::BOID_BYTES as u64,
                    step_mode: VertexStepMode::Instance,
                    attributes: vec![state(0, 0)],
                },
                species(1),
            ],
            Some(BlendState::ALPHA_BLENDING),
            // As Bevy's sprites: tested against the opaque 2D pass's depth, written by none.
            Some(DepthStencilState {
                format: CORE_2D_DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(CompareFunction::GreaterEqual),
                stencil: default(),
                bias: default(),
            }),
            None,
        );
        #[cfg(flock_3d)]
        let (buffers, blend, depth_stencil, cull_mode) = {
            let mesh = key
                .mesh_layout
                .0
                .get_layout(&[
                    Mesh::ATTRIBUTE_POSITION.at_shader_location(0),
                    Mesh::ATTRIBUTE_NORMAL.at_shader_location(1),
                ])
                .ok()?;
            (
                vec![
                    mesh,
                    VertexBufferLayout {
                        array_stride: flock_gpu::BOID_BYTES as u64,
                        step_mode: VertexStepMode::Instance,
                        attributes: vec![state(2, 0), state(3, 16)],
                    },
                    species(4),
                ],
                None,
                Some(DepthStencilState {
                    format: CORE_3D_DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    // Bevy's 3D views use reverse Z: nearer is greater.
                    depth_compare: Some(CompareFunction::GreaterEqual),
                    stencil: default(),
                    bias: default(),
                }),
                Some(Face::Back),
            )
        };
        let shader_defs = if cfg!(flock_3d) {
            vec!["FLOCK_3D".into()]
        } else {
            Vec::new()
        };
        Some(RenderPipelineDescriptor {
            label: Some("bevy_flock gpu draw".into()),
            layout: vec![self.layout.clone()],
            vertex: VertexState {
                shader: DRAW_SHADER,
                entry_point: Some("vertex".into()),
                shader_defs: shader_defs.clone(),
                buffers,
            },
            primitive: PrimitiveState {
                cull_mode,
                ..default()
            },
            depth_stencil,
            multisample: MultisampleState {
                count: key.samples,
                ..default()
            },
            fragment: Some(FragmentState {
                shader: DRAW_SHADER,
                entry_point: Some("fragment".into()),
                shader_defs,
                targets: vec![Some(ColorTargetState {
                    format: key.format,
                    blend,
                    write_mask: ColorWrites::ALL,
                })],
            }),
            ..default()
        })
    }
}

/// In `Queue`: the whole flock as one item of each view's transparent 2D phase, at the flock's
/// z, for the views that see its layers once its pipeline is compiled; with the view's bind
/// group for [`DrawGpuFlock`].
#[cfg(not(flock_3d))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn queue_gpu_flock(
    views: Query<(Entity, &ExtractedView, &Msaa, Option<&RenderLayers>)>,
    flock: Res<RenderGpuFlock>,
    look: Res<RenderGpuLook>,
    images: Res<RenderAssets<GpuImage>>,
    cache: Res<PipelineCache>,
    device: Res<RenderDevice>,
    draw_functions: Res<DrawFunctions<Transparent2d>>,
    mut phases: ResMut<ViewSortedRenderPhases<Transparent2d>>,
    mut pipelines: ResMut<GpuDrawPipelines>,
) {
    pipelines.view_bind_groups.clear();
    let Some(draw_function) = draw_functions.read().get_id::<DrawGpuFlock>() else {
        return;
    };
    for (entity, view, msaa, layers) in &views {
        let (Some(phase), Some((_, _, instances)), Some(image)) = (
            phases.get_mut(&view.retained_view_entity),
            boids_to_draw(layers, &look, &flock),
            images.get(look.image),
        ) else {
            continue;
        };
        if instances.is_empty() {
            continue;
        }
        let key = PipelineKey {
            format: view.target_format,
            samples: msaa.samples(),
        };
        let scene = ViewScene::default();
        let Some((pipeline, _, bind_group)) =
            pipelines.ready(&cache, &device, key, view, &look, &scene, image)
        else {
            continue;
        };
        pipelines.view_bind_groups.insert(entity, bind_group);
        phase.add_transient(Transparent2d {
            sort_key: FloatOrd(look.depth),
            entity: (entity, MainEntity::from(Entity::PLACEHOLDER)),
            pipeline,
            draw_function,
            batch_range: 0..1,
            // Not a sprite: Bevy's sprite batching starts a new batch after it.
            extracted_index: usize::MAX,
            extra_index: PhaseItemExtraIndex::None,
            indexed: false,
        });
    }
}

/// The transparent 2D phase's draw of the flock: its pipeline, the view's bind group, the boid
/// and species buffers as instance data, one quad per boid.
#[cfg(not(flock_3d))]
pub(crate) struct DrawGpuFlock;

#[cfg(not(flock_3d))]
impl Draw<Transparent2d> for DrawGpuFlock {
    fn draw<'w>(
        &mut self,
        world: &'w World,
        pass: &mut TrackedRenderPass<'w>,
        view: Entity,
        item: &Transparent2d,
    ) -> Result<(), DrawError> {
        let (Some(cache), Some(pipelines), Some(flock)) = (
            world.get_resource::<PipelineCache>(),
            world.get_resource::<GpuDrawPipelines>(),
            world.get_resource::<RenderGpuFlock>(),
        ) else {
            return Err(DrawError::RenderCommandFailure("the GPU flock's resources"));
        };
        let (Some(pipeline), Some(bind_group), Some(kernel)) = (
            cache.get_render_pipeline(item.pipeline),
            pipelines.view_bind_groups.get(&view),
            flock.kernel(),
        ) else {
            return Ok(());
        };
        // The raw pass takes buffers Bevy does not own; it forgets what the tracked pass had
        // bound, so the sprites after the flock bind theirs again.
        let pass = pass.wgpu_pass();
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &**bind_group, &[]);
        pass.set_vertex_buffer(0, kernel.boid_buffer().slice(..));
        pass.set_vertex_buffer(1, kernel.species_buffer().slice(..));
        pass.draw(0..6, 0..flock.len() as u32);
        Ok(())
    }
}

/// In the main 3D pass of each camera, after the opaque pass: the whole flock in one
/// instanced draw, depth-tested with the scene.
#[cfg(flock_3d)]
pub(crate) fn draw_gpu_flock(
    view: ViewQuery<(
        &ExtractedCamera,
        &ExtractedView,
        &ViewTarget,
        &ViewDepthTexture,
        &Msaa,
        Option<&RenderLayers>,
        (Option<&DistanceFog>, Option<&AmbientLight>),
    )>,
    flock: Res<RenderGpuFlock>,
    look: Res<RenderGpuLook>,
    meshes: Res<RenderAssets<RenderMesh>>,
    allocator: Res<MeshAllocator>,
    cache: Res<PipelineCache>,
    mut pipelines: ResMut<GpuDrawPipelines>,
    mut ctx: RenderContext,
) {
    let (camera, view, target, depth, msaa, layers, (fog, ambient)) = view.into_inner();
    let (Some((boids, species, instances)), Some(mesh), Some(vertices)) = (
        boids_to_draw(layers, &look, &flock),
        meshes.get(look.mesh),
        allocator.mesh_vertex_slice(&look.mesh),
    ) else {
        return;
    };
    let key = PipelineKey {
        format: target.main_texture_format(),
        samples: msaa.samples(),
        mesh_layout: mesh.layout.clone(),
    };
    let device = ctx.render_device().clone();
    let scene = ViewScene {
        exposure: camera.exposure,
        camera: view.world_from_view.translation(),
        ambient: ambient.map(|light| super::look::ambient_of(light.color, light.brightness)),
        fog: fog.cloned(),
    };
    let Some((_, pipeline, bind_group)) =
        pipelines.ready(&cache, &device, key, view, &look, &scene)
    else {
        return;
    };
    let indices = match &mesh.buffer_info {
        RenderMeshBufferInfo::Indexed {
            index_format,
            count,
        } => match allocator.mesh_index_slice(&look.mesh) {
            Some(slice) => Some((slice, *index_format, *count)),
            None => return,
        },
        RenderMeshBufferInfo::NonIndexed => None,
    };
    let depth = depth.get_attachment(StoreOp::Store);
    let mut pass = begin_draw(&mut ctx, camera, target, Some(depth), pipeline, &bind_group);
    pass.set_vertex_buffer(0, (**vertices.buffer).slice(..));
    pass.set_vertex_buffer(1, boids.slice(..));
    pass.set_vertex_buffer(2, species.slice(..));
    match indices {
        Some((slice, format, count)) => {
            pass.set_index_buffer((**slice.buffer).slice(..), format);
            let first = slice.range.start;
            pass.draw_indexed(first..first + count, vertices.range.start as i32, instances);
        }
        None => pass.draw(vertices.range, instances),
    }
}

/// What both draws open with: the boid and species buffers and the instances to draw, when a
/// camera on `layers` (layer 0 when it has none) sees the flock's layers and the flock has
/// boids.
fn boids_to_draw<'f>(
    layers: Option<&RenderLayers>,
    look: &RenderGpuLook,
    flock: &'f RenderGpuFlock,
) -> Option<(
    &'f flock_gpu::wgpu::Buffer,
    &'f flock_gpu::wgpu::Buffer,
    Range<u32>,
)> {
    let sees = layers
        .unwrap_or(&RenderLayers::default())
        .intersects(&look.layers);
    if !sees || flock.is_empty() {
        return None;
    }
    let kernel = flock.kernel()?;
    Some((
        kernel.boid_buffer(),
        kernel.species_buffer(),
        0..flock.len() as u32,
    ))
}

/// A render pass on the view's main texture (cleared if nothing has drawn to it yet this
/// frame), limited to the camera's viewport, with the draw's pipeline and bind group set.
#[cfg(flock_3d)]
fn begin_draw<'a>(
    ctx: &'a mut RenderContext,
    camera: &ExtractedCamera,
    target: &ViewTarget,
    depth: Option<RenderPassDepthStencilAttachment>,
    pipeline: &RenderPipeline,
    bind_group: &BindGroup,
) -> flock_gpu::wgpu::RenderPass<'a> {
    let color = [Some(target.get_color_attachment())];
    let mut pass = ctx
        .command_encoder()
        .begin_render_pass(&RenderPassDescriptor {
            label: Some("bevy_flock gpu draw"),
            color_attachments: &color,
            depth_stencil_attachment: depth,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
    if let Some(viewport) = &camera.viewport {
        let (position, size) = (viewport.physical_position, viewport.physical_size);
        pass.set_viewport(
            position.x as f32,
            position.y as f32,
            size.x as f32,
            size.y as f32,
            viewport.depth.start,
            viewport.depth.end,
        );
    }
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, &**bind_group, &[]);
    pass
}

/// The view's uniform in a buffer of its own, made with its contents (so two cameras never
/// share one, and nothing waits on a queue write).
fn view_uniform_buffer(
    device: &RenderDevice,
    view: &ExtractedView,
    look: &RenderGpuLook,
    scene: &ViewScene,
) -> bevy::render::render_resource::Buffer {
    let clip_from_world = view
        .clip_from_world
        .unwrap_or_else(|| view.clip_from_view * view.world_from_view.to_matrix().inverse());
    device.create_buffer_with_data(&BufferInitDescriptor {
        label: Some("bevy_flock gpu draw view"),
        contents: &view_uniform(clip_from_world, look, scene),
        usage: BufferUsages::UNIFORM,
    })
}

#[cfg(all(test, flock_3d))]
mod tests {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{MeshVertexBufferLayouts, PrimitiveTopology};

    use super::*;

    fn key_for(mesh: &Mesh) -> PipelineKey {
        PipelineKey {
            format: TextureFormat::Rgba16Float,
            samples: 4,
            mesh_layout: mesh
                .get_mesh_vertex_buffer_layout(&mut MeshVertexBufferLayouts::default()),
        }
    }

    #[test]
    fn a_mesh_without_normals_gets_no_pipeline_and_one_with_them_does() {
        let pipelines = GpuDrawPipelines::default();
        let bird = crate::render::meshes::bird_mesh(10.0);
        assert!(pipelines.descriptor(&key_for(&bird)).is_some());
        let bare = Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, vec![Vec3::ZERO; 3]);
        assert!(pipelines.descriptor(&key_for(&bare)).is_none());
    }
}
