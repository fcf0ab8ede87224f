#include "binning/passes.h"

#include <algorithm>

#include "common/cuda_check.h"

namespace render::gpu {

void BinnedPasses::draw(const BinnedFrame& f, bool still, FrameGraphs& graphs,
                        const std::function<PixelStart()>& take_start) {
  if (!pair_count_known_) {
    read_pair_count(f, still); // stages 1 and 2
    if (pair_count_ == 0) return;
    reserve(f, graphs);
    const PixelStart start = take_start();
    placing(f) ? place(f, start) : shade_passes(f, start);
    return;
  }
  if (pair_count_ == 0) return;
  reserve(f, graphs);
  const PixelStart start = take_start();
  graphs.run({CudaMode::Binned, start, f.shading}, f.stream, [&] {
    if (placing(f)) {
      prepare(f);
      place(f, start);
    } else {
      count_tiles(f);
      shade_passes(f, start);
    }
  });
}

void BinnedPasses::read_pair_count(const BinnedFrame& f, bool still) {
  count_tiles(f);
  CUDA_CHECK(cudaMemcpyAsync(pair_total_.data(), f.circles.bins.tile_counts + f.scene.count,
                             sizeof(std::uint64_t), cudaMemcpyDeviceToHost, f.stream));
  CUDA_CHECK(cudaStreamSynchronize(f.stream));
  pair_count_ = pair_total_[0];
  pair_count_known_ = still;
}

void BinnedPasses::prepare(const BinnedFrame& f) const {
  const BinCounts& bins = f.circles.bins;
  CUDA_CHECK(cudaMemsetAsync(bins.warp_circle_count, 0, sizeof(std::uint32_t), f.stream));
  prepare_circles(f.scene, f.frame, f.circles.records, &bins, f.stream);
}

void BinnedPasses::count_tiles(const BinnedFrame& f) const {
  const BinCounts& bins = f.circles.bins;
  prepare(f);
  count_tiles_by_warp(f.circles.records, bins, f.scene.count, f.frame, f.stream);
  scan_tile_counts(bins.tile_counts, f.scene.count, f.circles.scan_scratch, f.circles.scan_bytes,
                   f.stream);
}

bool BinnedPasses::placing(const BinnedFrame& f) const {
  return f.counting && counting_placement_fits(f.frame.tile_count()) &&
         pair_count_ <= memory_.max_pairs_per_pass();
}

void BinnedPasses::reserve(const BinnedFrame& f, FrameGraphs& graphs) {
  const PairMemory::Growth growth = memory_.growth_for(pairs_per_pass(), f.frame.tile_count());
  if (growth.needed) {
    graphs.clear();
    memory_.grow(growth, f.frame);
  }
  if (!placing(f)) return;
  const std::size_t entries = placement_chunks(f.scene.count, f.frame.tile_count()).entries();
  const std::size_t scan_bytes = placement_scan_bytes(entries);
  std::size_t bytes = 0;
  lay_out_placement(nullptr, entries, scan_bytes, bytes);
  if (bytes > placement_arena_.capacity()) graphs.clear(); // they name the old matrix
  placement_ = lay_out_placement(placement_arena_.reserve(bytes), entries, scan_bytes, bytes);
}

std::size_t BinnedPasses::pairs_per_pass() const {
  return static_cast<std::size_t>(
      std::min<std::uint64_t>(pair_count_, memory_.max_pairs_per_pass()));
}

void BinnedPasses::place(const BinnedFrame& f, PixelStart start) const {
  const PlacementChunks chunks = placement_chunks(f.scene.count, f.frame.tile_count());
  const CircleScratch& c = f.circles;
  std::uint32_t* values = memory_.scratch().values[0];
  count_chunk_pairs(c.records, c.bins, f.scene.count, f.frame, chunks, placement_.matrix, f.stream);
  scan_chunk_pairs(placement_.matrix, chunks, placement_.scan_scratch, placement_.scan_bytes,
                   f.stream);
  place_chunk_pairs(c.records, c.bins, f.scene.count, f.frame, chunks, placement_.matrix, values,
                    c.tile_ranges, f.stream);
  shade_binned(c.records, values, c.tile_ranges, f.frame, f.shading, f.rows_per_thread, f.suffix,
               start, f.pixels, f.stream);
}

void BinnedPasses::shade_passes(const BinnedFrame& f, PixelStart start) const {
  const PairScratch& pairs = memory_.scratch();
  const int tiles = f.frame.tile_count();
  const std::uint64_t total = pair_count_;
  const std::uint64_t per_pass = pairs_per_pass();
  for (std::uint64_t first = 0; first < total; first += per_pass) {
    const std::uint64_t end = std::min(total, first + per_pass);
    const auto n = static_cast<std::size_t>(end - first);
    emit_pairs(f.circles.records, f.circles.bins, f.scene.count, f.frame, first, end, pairs.keys[0],
               pairs.values[0], f.stream);
    const int sorted = sort_pairs(pairs.keys, pairs.values, n, tiles, pairs.sort_scratch,
                                  pairs.sort_bytes, f.stream);
    find_tile_ranges(pairs.keys[sorted], n, tiles, f.circles.tile_ranges, f.stream);
    shade_binned(f.circles.records, pairs.values[sorted], f.circles.tile_ranges, f.frame, f.shading,
                 f.rows_per_thread, f.suffix, first == 0 ? start : PixelStart::Image, f.pixels,
                 f.stream);
  }
}

} // namespace render::gpu
