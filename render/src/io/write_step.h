// Runs a step of writing a file; its failure becomes "cannot write PATH:
// REASON", with the reason scenes::AtomicFile gives (errno's text, or why it
// refuses the destination: a folder, a symbolic link, a read-only file).
#pragma once

#include <stdexcept>
#include <string>

#include "scenes/atomic_file.h"

namespace render::detail {

template <typename Step> void writing(const std::string& path, Step&& step) {
  try {
    step();
  } catch (const scenes::WriteError& e) {
    throw std::runtime_error("cannot write " + path + ": " + e.what());
  }
}

} // namespace render::detail
