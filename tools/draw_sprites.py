#!/usr/bin/env python3
"""Draw the boid sprite prefabs: arrow.png, fish.png and bird.png.

Each sprite is a 64x64 RGBA image with a transparent background. The shape is
filled pure white (so Bevy can tint it by multiplying with any colour) and has
a thin dark outline so it stays readable on dark backgrounds after tinting.
All shapes point to the right (+x): the game rotates them by atan2(vy, vx).

Shapes are drawn at 4x (256x256) and downsampled with LANCZOS for smooth,
anti-aliased edges. Output goes to <repo>/src/render/sprites/, where the crate embeds them (src/render/sprites/mod.rs).

Rerun from the repository root with:

    python3 tools/draw_sprites.py

(requires Pillow: pip install pillow)
"""
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "src" / "render" / "sprites"

SIZE = 64          # final sprite size in pixels
SCALE = 4          # supersampling factor
FILL = (255, 255, 255, 255)
OUTLINE = (40, 40, 40, 255)
OUTLINE_PX = 1.25  # outline width in final pixels
EYE = (30, 30, 30, 255)


def pts(points):
    """Scale (x, y) points given in 64x64 sprite space up to the 4x canvas."""
    return [(x * SCALE, y * SCALE) for x, y in points]


def box(x0, y0, x1, y1):
    return [x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE]


def arrow(d):
    # Dart/chevron: tip at the right edge, notch cut into the back.
    d.polygon(pts([(61, 32), (4, 5), (19, 32), (4, 59)]), fill=255)


def fish(d):
    # Elliptical body towards the right.
    d.ellipse(box(15, 19, 61, 45), fill=255)
    # Forked tail fin on the left, joined to the body by a narrow stem.
    d.polygon(pts([(22, 28.5), (12, 17), (3, 10), (6, 21), (12, 32),
                   (6, 43), (3, 54), (12, 47), (22, 35.5)]), fill=255)
    # Small swept-back fins on both sides.
    d.polygon(pts([(40, 21), (28, 13), (31, 22)]), fill=255)
    d.polygon(pts([(40, 43), (28, 51), (31, 42)]), fill=255)


def fish_details(d):
    # Dark eye near the right end (drawn on top of the fill).
    d.ellipse(box(50, 25.5, 55, 30.5), fill=EYE)


def bird(d):
    # Slim body along the x axis, small head and beak at the right.
    d.ellipse(box(16, 28, 50, 36), fill=255)
    d.ellipse(box(44, 27.5, 56, 36.5), fill=255)
    d.polygon(pts([(54, 30), (62, 32), (54, 34)]), fill=255)
    # Two crescent wings swept back: curved leading edge, tips trail behind.
    for s in (-1, 1):
        def y(v):
            return 32 + s * v
        d.polygon(pts([(43, y(2)), (41, y(8)), (36, y(15)), (29, y(22)),
                       (20, y(27.5)), (9, y(30)), (17, y(25)), (23, y(19)),
                       (27, y(12)), (29, y(6)), (28, y(2))]), fill=255)
    # Long forked swallow tail.
    d.polygon(pts([(21, 30.5), (3, 23), (11, 32), (3, 41), (21, 33.5)]), fill=255)


def render(draw_mask, draw_details=None):
    big = SIZE * SCALE
    mask = Image.new("L", (big, big), 0)
    draw_mask(ImageDraw.Draw(mask))

    # Outline = the mask grown by a few pixels, painted dark under the fill.
    grow = int(round(OUTLINE_PX * SCALE)) * 2 + 1
    outline_mask = mask.filter(ImageFilter.MaxFilter(grow))

    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    img.paste(OUTLINE, mask=outline_mask)
    img.paste(FILL, mask=mask)
    if draw_details:
        draw_details(ImageDraw.Draw(img))
    return img.resize((SIZE, SIZE), Image.LANCZOS)


def main():
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    sprites = {
        "arrow": render(arrow),
        "fish": render(fish, fish_details),
        "bird": render(bird),
    }
    for name, img in sprites.items():
        path = OUT_DIR / f"{name}.png"
        img.save(path)
        print(f"wrote {path} {img.size}")


if __name__ == "__main__":
    main()
