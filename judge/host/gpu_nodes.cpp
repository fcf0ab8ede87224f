// The device nodes of the worker's GPU, told apart by its PCI bus id.
#include <glob.h>

#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include "judge/sandbox.h"
#include "sandbox_view.h"

namespace judge {

std::vector<std::string> gpu_device_nodes(const std::string& bus_id, bool* one_gpu) {
  std::vector<std::string> nodes;
  for (const char* shared : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                             "/dev/nvidia-modeset", "/dev/nvidia-caps"})
    if (view::exists(shared)) nodes.emplace_back(shared);
  std::string id = bus_id;
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // The driver names the folder with a 4-digit domain; CUDA may give 8.
  if (id.size() > 12 && id.compare(0, 4, "0000") == 0) id = id.substr(4);
  std::ifstream info("/proc/driver/nvidia/gpus/" + id + "/information");
  for (std::string line; std::getline(info, line);) {
    if (line.compare(0, 13, "Device Minor:") != 0) continue;
    const std::string minor = line.substr(line.find_first_not_of(" \t", 13));
    const std::string node = "/dev/nvidia" + minor;
    if (!minor.empty() && minor.find_first_not_of("0123456789") == std::string::npos &&
        view::exists(node)) {
      nodes.push_back(node);
      *one_gpu = true;
      return nodes;
    }
  }
  // Not told apart: every GPU's node (one alone, where the machine or the
  // container shows one, is this GPU's).
  glob_t g{};
  std::size_t gpus = 0;
  if (glob("/dev/nvidia[0-9]*", 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i, ++gpus) nodes.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  *one_gpu = gpus == 1;
  return nodes;
}

} // namespace judge
