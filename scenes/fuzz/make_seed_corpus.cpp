// Writes the fuzzer's seed corpus: real scenes (some advanced a few frames)
// as scene files, one per file, into the folder given as the argument.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "scenes/scene.h"
#include "scenes/scene_file.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_corpus FOLDER\n");
    return 2;
  }
  try {
    const std::string folder = argv[1];
    // Small scenes only: the fuzzer mutates whole inputs, so seeds stay short.
    for (const char* name : {"rgb", "rgby", "bouncingballs", "hypnosis", "fireworks"}) {
      scenes::Scene scene = scenes::load_scene(name, 7);
      scenes::save_scene(scene, folder + "/" + name + ".scene");
      for (int frame = 0; frame < 20; ++frame) scenes::advance(scene);
      scenes::save_scene(scene, folder + "/" + name + "_frame20.scene");
    }
    for (const char* name : {"snow", "rand10k", "pattern"}) {
      scenes::Scene scene = scenes::load_scene(name);
      // The first circles are enough to show the layout.
      for (std::vector<float>* array : {&scene.x, &scene.y, &scene.z, &scene.vx, &scene.vy,
                                        &scene.vz, &scene.r, &scene.g, &scene.b, &scene.radius}) {
        array->resize(12);
      }
      scenes::save_scene(scene, folder + "/" + name + "_first12.scene");
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "make_seed_corpus: error: %s\n", error.what());
    return 1;
  }
}
