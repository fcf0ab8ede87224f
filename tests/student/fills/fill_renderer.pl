#!/usr/bin/env perl
# Fills a copy of render/student/student_renderer.cu correctly, as a student
# would: the one-thread-per-circle kernel becomes one thread per pixel that
# blends every circle covering it in index order, launched over the pixels.
# scripts/test_handout.sh runs it on a handout's slot (perl -i) and expects
# full correctness. Not part of any handout.
use strict;
use warnings;

local $/;
my $source = <>;
my $kernel = <<'KERNEL';
__global__ void kernel_render_circles(DeviceScene s, float* image, int width, int height) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= static_cast<std::size_t>(width) * height) return;
  const int px = static_cast<int>(p % width), py = static_cast<int>(p / width);
  const float center_x = shade::pixel_center(px, shade::inverse_extent(width));
  const float center_y = shade::pixel_center(py, shade::inverse_extent(height));
  float pixel[4];
  for (int c = 0; c < 4; ++c) pixel[c] = image[4 * p + c];
  for (int i = 0; i < s.count; ++i) {
    const shade::PixelBox box = shade::circle_box(s.x[i], s.y[i], s.radius[i], width, height);
    if (px < box.min_x || px >= box.max_x || py < box.min_y || py >= box.max_y) continue;
    shade::shade_pixel(pixel, center_x, center_y, s.x[i], s.y[i], s.z[i], s.radius[i], s.r[i],
                       s.g[i], s.b[i], s.snow);
  }
  for (int c = 0; c < 4; ++c) image[4 * p + c] = pixel[c];
}
KERNEL
$source =~ s/__global__ void kernel_render_circles\(.*?\n}\n/$kernel/s
  or die "fill_renderer.pl: no kernel_render_circles to replace\n";
$source =~ s/(kernel_render_circles<<<)blocks_for\(static_cast<std::size_t>\(scene_\.count\)\)/$1blocks_for(image_.pixel_count())/
  or die "fill_renderer.pl: no launch of kernel_render_circles to replace\n";
print $source;
