#include "memory/layouts.h"

#include <utility>
#include <vector>

#include "common/cuda_check.h"
#include "memory/scratch.h"

namespace render::gpu {

SceneArrays lay_out_scene(void* base, int count, std::size_t& bytes) {
  ScratchCarver carver(base);
  const auto n = static_cast<std::size_t>(count);
  SceneArrays s;
  s.x = carver.take<float>(n);
  s.y = carver.take<float>(n);
  s.z = carver.take<float>(n);
  s.vx = carver.take<float>(n);
  s.vy = carver.take<float>(n);
  s.vz = carver.take<float>(n);
  s.r = carver.take<float>(n);
  s.g = carver.take<float>(n);
  s.b = carver.take<float>(n);
  s.radius = carver.take<float>(n);
  s.count = count;
  bytes = carver.bytes();
  return s;
}

SceneArrays upload_scene(const scenes::Scene& scene, common::DeviceBuffer<unsigned char>& memory,
                         cudaStream_t stream) {
  const int count = static_cast<int>(scene.size());
  std::size_t bytes = 0;
  lay_out_scene(nullptr, count, bytes);
  memory = common::DeviceBuffer<unsigned char>();
  memory = common::DeviceBuffer<unsigned char>(bytes, "CUDA renderer: scene");
  const SceneArrays d = lay_out_scene(memory.data(), count, bytes);
  const std::pair<float*, const std::vector<float>*> arrays[] = {
      {d.x, &scene.x},   {d.y, &scene.y},          {d.z, &scene.z}, {d.vx, &scene.vx},
      {d.vy, &scene.vy}, {d.vz, &scene.vz},        {d.r, &scene.r}, {d.g, &scene.g},
      {d.b, &scene.b},   {d.radius, &scene.radius}};
  for (const auto& [device, host] : arrays)
    if (!host->empty())
      CUDA_CHECK(cudaMemcpyAsync(device, host->data(), host->size() * sizeof(float),
                                 cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return d;
}

CircleScratch lay_out_circles(void* base, int count, int tile_count, std::size_t scan_bytes,
                              std::size_t& bytes) {
  ScratchCarver carver(base);
  const auto n = static_cast<std::size_t>(count);
  CircleScratch c;
  c.records.geometry = carver.take<float4>(n);
  c.records.paint = carver.take<float4>(n);
  c.records.tiles = carver.take<uint2>(n);
  c.bins.tile_counts = carver.take<std::uint64_t>(n + 1);
  c.bins.warp_circles = carver.take<std::uint32_t>(n);
  c.bins.warp_circle_count = carver.take<std::uint32_t>(1);
  c.bins.small_kinds = carver.take<std::uint32_t>(n);
  c.scan_scratch = carver.take<unsigned char>(scan_bytes);
  c.scan_bytes = scan_bytes;
  c.tile_ranges = carver.take<uint2>(static_cast<std::size_t>(tile_count));
  bytes = carver.bytes();
  return c;
}

PairScratch lay_out_pairs(void* base, std::size_t capacity, int tile_count, std::size_t sort_bytes,
                          std::size_t& bytes) {
  ScratchCarver carver(base);
  PairScratch p;
  p.narrow = narrow_pair_keys(tile_count);
  for (int i = 0; i < 2; ++i) {
    if (p.narrow)
      p.keys[i].narrow = carver.take<std::uint16_t>(capacity);
    else
      p.keys[i].wide = carver.take<std::uint32_t>(capacity);
    p.values[i] = carver.take<std::uint32_t>(capacity);
  }
  p.sort_scratch = carver.take<unsigned char>(sort_bytes);
  p.sort_bytes = sort_bytes;
  p.capacity = capacity;
  bytes = carver.bytes();
  return p;
}

PlacementScratch lay_out_placement(void* base, std::size_t entries, std::size_t scan_bytes,
                                   std::size_t& bytes) {
  ScratchCarver carver(base);
  PlacementScratch p;
  p.matrix = carver.take<std::uint32_t>(entries);
  p.scan_scratch = carver.take<unsigned char>(scan_bytes);
  p.scan_bytes = scan_bytes;
  bytes = carver.bytes();
  return p;
}

} // namespace render::gpu
