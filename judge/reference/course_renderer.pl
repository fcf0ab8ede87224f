#!/usr/bin/env perl
# Fills a copy of render/student/student_renderer.cu with the course's
# design, as the course's own reference renderer has it: one block per
# 16x16 tile of pixels, one thread per pixel; the block takes the circles in
# batches of one per thread, each thread tests its circle against the tile,
# a block-wide exclusive scan of those flags (block_scan.cuh, the helper a
# handout gives students) lists the batch's hits in index order, and every
# thread blends its pixel over that list only. It calls nothing a handout
# does not hold. scripts/make_handout.sh builds the handout's reference
# programs (ref/render_ref, the judge's reference worker) from a copy of the
# handout whose slot this fills (perl -i), so they hold this design alone.
use strict;
use warnings;

local $/;
my $source = <>;
my $kernel = <<'KERNEL';
constexpr int kTileSide = 16;
constexpr int kTileThreads = kTileSide * kTileSide; // one per pixel, one per circle of a batch

unsigned tiles_for(int width, int height) {
  const unsigned across = static_cast<unsigned>((width + kTileSide - 1) / kTileSide);
  const unsigned down = static_cast<unsigned>((height + kTileSide - 1) / kTileSide);
  return across * down;
}

__global__ void kernel_render_circles(DeviceScene s, float* image, int width, int height) {
  __shared__ BlockScanStorage<kTileThreads, unsigned> scan;
  // The batch's hits, in index order, with what shading reads of each:
  // every thread of the block reads them, so they are staged once here.
  __shared__ float4 hit_circle[kTileThreads]; // x, y, z, radius
  __shared__ float4 hit_color[kTileThreads];  // r, g, b
  __shared__ shade::PixelBox hit_box[kTileThreads];

  const int t = static_cast<int>(threadIdx.x);
  const int tiles_across = (width + kTileSide - 1) / kTileSide;
  const int x0 = static_cast<int>(blockIdx.x) % tiles_across * kTileSide;
  const int y0 = static_cast<int>(blockIdx.x) / tiles_across * kTileSide;
  const int px = x0 + t % kTileSide, py = y0 + t / kTileSide;
  // Threads past the image's edge test circles and wait at the barriers
  // like the others, but own no pixel.
  const bool in_image = px < width && py < height;
  const float center_x = shade::pixel_center(px, shade::inverse_extent(width));
  const float center_y = shade::pixel_center(py, shade::inverse_extent(height));
  float* out = image + 4 * (static_cast<std::size_t>(in_image ? py : 0) * width + (in_image ? px : 0));
  float pixel[4] = {0.f, 0.f, 0.f, 0.f};
  if (in_image)
    for (int c = 0; c < 4; ++c) pixel[c] = out[c];

  for (int first = 0; first < s.count; first += kTileThreads) {
    // This thread's circle of the batch: does its pixel box reach the tile?
    const int i = first + t;
    shade::PixelBox box{0, 0, 0, 0};
    float x = 0.f, y = 0.f, radius = 0.f;
    if (i < s.count) {
      x = s.x[i];
      y = s.y[i];
      radius = s.radius[i];
      box = shade::circle_box(x, y, radius, width, height);
    }
    const bool hit = box.min_x < x0 + kTileSide && box.max_x > x0 && box.min_y < y0 + kTileSide &&
                     box.max_y > y0;
    unsigned hits = 0;
    const unsigned place = block_exclusive_scan<kTileThreads>(hit ? 1u : 0u, scan, hits);
    if (hit) { // lower indices get lower places: the list keeps index order
      hit_circle[place] = make_float4(x, y, s.z[i], radius);
      hit_color[place] = make_float4(s.r[i], s.g[i], s.b[i], 0.f);
      hit_box[place] = box;
    }
    __syncthreads();
    for (unsigned k = 0; k < hits && in_image; ++k) {
      const shade::PixelBox b = hit_box[k];
      if (px < b.min_x || px >= b.max_x || py < b.min_y || py >= b.max_y) continue;
      const float4 c = hit_circle[k], color = hit_color[k];
      shade::shade_pixel(pixel, center_x, center_y, c.x, c.y, c.z, c.w, color.x, color.y, color.z,
                         s.snow);
    }
    // The next batch's scan waits for every thread before the list is
    // written again.
  }
  if (in_image)
    for (int c = 0; c < 4; ++c) out[c] = pixel[c];
}
KERNEL
$source =~ s/__global__ void kernel_render_circles\(.*?\n}\n/$kernel/s
  or die "course_renderer.pl: no kernel_render_circles to replace\n";
$source =~ s/(kernel_render_circles<<<)blocks_for\(static_cast<std::size_t>\(scene_\.count\)\), kThreads>>>/$1tiles_for(image_.width(), image_.height()), kTileThreads>>>/
  or die "course_renderer.pl: no launch of kernel_render_circles to replace\n";
$source =~ s/(#include "student_renderer.h"\n)/$1#include "block_scan.cuh"\n/
  or die "course_renderer.pl: no include of student_renderer.h to follow\n";
print $source;
