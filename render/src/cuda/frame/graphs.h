// The CUDA renderer's recorded frames. A frame whose launches need no answer
// from the host (tiled; binned once a still scene's pair count is known) is
// recorded once as a CUDA graph and then replayed in one launch, saving the
// gaps between a dozen short kernels. One graph per mode, start and shading
// (a handful at most); all are dropped when a buffer they name is replaced.
// Plain C++.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "common/graph.h"
#include "kernels.h"
#include "render/cuda_mode.h"

namespace render::gpu {

class FrameGraphs {
public:
  // What a frame's launches depend on besides the buffers.
  struct Key {
    CudaMode mode;
    PixelStart start;
    Shading shading;
    bool operator==(const Key& o) const {
      return mode == o.mode && start == o.start && shading == o.shading;
    }
  };

  // Disabled, run() queues the launches directly every time.
  explicit FrameGraphs(bool enabled) : enabled_(enabled) {}

  // Queues `launches` (a frame's, taking their arguments from the renderer's
  // state only) on `stream` directly, or through the graph recorded for
  // `key`, recording it first when there is none.
  template <class Launches>
  void run(const Key& key, cudaStream_t stream, const Launches& launches) {
    if (!enabled_) return launches();
    auto it = std::find_if(graphs_.begin(), graphs_.end(),
                           [&](const auto& entry) { return entry.first == key; });
    if (it == graphs_.end()) {
      common::CudaGraph graph;
      graph.capture(stream, launches);
      graphs_.emplace_back(key, std::move(graph));
      it = graphs_.end() - 1;
    }
    it->second.launch(stream);
  }

  // Drops every graph: a buffer they name is about to be replaced.
  void clear() { graphs_.clear(); }

private:
  bool enabled_;
  std::vector<std::pair<Key, common::CudaGraph>> graphs_;
};

} // namespace render::gpu
