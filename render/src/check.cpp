#include "render/check.h"

#include <cstdio>

namespace render {

float check_tolerance(const scenes::Scene& scene, RendererKind renderer) {
  const bool gpu = renderer == RendererKind::Cuda || renderer == RendererKind::Student;
  return scene.snow && gpu ? kSnowTolerance : 0.f;
}

void print_mismatch(const ImageComparison& comparison, int frame, float tolerance,
                    std::ostream& out) {
  char line[512];
  if (!comparison.sizes_match) {
    std::snprintf(line, sizeof line, "Frame %d: the image sizes differ\n", frame);
    out << line;
    return;
  }
  if (comparison.passed()) return;
  const auto& a = comparison.first_actual;
  const auto& e = comparison.first_expected;
  const int c = comparison.first_channel;
  std::snprintf(line, sizeof line, "Mismatch detected at pixel [%d][%d], value = %f, expected %f\n",
                comparison.first_x, comparison.first_y, a[c], e[c]);
  out << line;
  std::snprintf(line, sizeof line,
                "  pixel (r, g, b, a) = (%.9g, %.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g, "
                "%.9g)\n",
                a[0], a[1], a[2], a[3], e[0], e[1], e[2], e[3]);
  out << line;
  std::snprintf(line, sizeof line,
                "Frame %d: %zu mismatching pixels, max error %.9g (tolerance %g)\n", frame,
                comparison.mismatches, comparison.max_error, static_cast<double>(tolerance));
  out << line;
}

} // namespace render
