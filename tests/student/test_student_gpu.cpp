// The student slots against the serial references, on the GPU (they skip
// without one). In a handout these are the tests of the student's code: each
// passes once its slot is filled correctly; an unfilled slot fails with the
// slot's message naming the file to edit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/device_buffer.h"
#include "gpu_test.h"
#include "render/check.h"
#include "render/image.h"
#include "render/ref_renderer.h"
#include "render/renderer.h"
#include "render/renderer_factory.h"
#include "saxpy/saxpy.h"
#include "scan/reference.h"
#include "scan/scan.h"
#include "scenes/scene.h"

namespace {

// Sizes around block and power-of-two edges, and one past a million.
const std::vector<std::int64_t> kSizes = {1, 2, 7, 255, 256, 257, 1000, 4096, 1'000'003};

class StudentSaxpy : public GpuTest {};

TEST_F(StudentSaxpy, MatchesTheSerialVersionBitwise) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1000.f, 1000.f);
  for (std::int64_t n : kSizes) {
    const auto count = static_cast<std::size_t>(n);
    std::vector<float> x(count), y(count), want(count), got(count, -1.f);
    for (std::size_t i = 0; i < count; ++i) x[i] = dist(rng), y[i] = dist(rng);
    saxpy::saxpy_serial(count, 2.f, x.data(), y.data(), want.data());
    saxpy::run(saxpy::Variant::Student, count, 2.f, x.data(), y.data(), got.data());
    for (std::size_t i = 0; i < count; ++i)
      ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(float)), 0)
          << "n = " << n << ", index " << i << ": got " << got[i] << ", want " << want[i];
  }
}

std::vector<int> random_ints(std::int64_t n, int range, std::mt19937& rng) {
  std::uniform_int_distribution<int> dist(0, range - 1);
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int& e : v) e = dist(rng);
  return v;
}

class StudentScan : public GpuTest {};

TEST_F(StudentScan, ExclusiveScanMatchesTheSerialVersion) {
  std::mt19937 rng(2);
  for (std::int64_t n : kSizes) {
    const auto count = static_cast<std::size_t>(n);
    const std::vector<int> in = random_ints(n, 10, rng);
    std::vector<int> want(count), got(count);
    scan::exclusive_scan_serial(in.data(), want.data(), n);
    common::DeviceBuffer<int> d_in(count, "in"), d_out(count, "out");
    d_in.copy_from_host(in.data(), count);
    scan::exclusive_scan(d_in.data(), d_out.data(), n, scan::Algorithm::kStudent);
    d_out.copy_to_host(got.data(), count);
    const std::int64_t bad = scan::first_mismatch(got.data(), want.data(), n);
    ASSERT_EQ(bad, n) << "n = " << n << ", index " << bad << ": got " << got[bad] << ", want "
                      << want[bad];
  }
}

TEST_F(StudentScan, FindRepeatsMatchesTheSerialVersion) {
  std::mt19937 rng(3);
  for (std::int64_t n : kSizes) {
    if (n < 2) continue;
    const auto count = static_cast<std::size_t>(n);
    const std::vector<int> in = random_ints(n, 4, rng); // many repeats
    std::vector<int> want(count - 1), got(count - 1);
    const std::int64_t want_count = scan::find_repeats_serial(in.data(), n, want.data());
    common::DeviceBuffer<int> d_in(count, "in"), d_out(count - 1, "out");
    d_in.copy_from_host(in.data(), count);
    const std::int64_t got_count =
        scan::find_repeats(d_in.data(), n, d_out.data(), scan::Algorithm::kStudent);
    ASSERT_EQ(got_count, want_count) << "n = " << n;
    d_out.copy_to_host(got.data(), static_cast<std::size_t>(got_count));
    const std::int64_t bad = scan::first_mismatch(got.data(), want.data(), got_count);
    ASSERT_EQ(bad, got_count) << "n = " << n << ", index " << bad;
  }
}

// One workspace for every call: its count slot (mapped host memory the slot's
// count is copied into) is reused, and the calls with no pair return 0.
TEST_F(StudentScan, FindRepeatsCountSlotReused) {
  std::mt19937 rng(4);
  scan::Workspace workspace;
  for (std::int64_t n : {1000, 0, 4096, 1, 2, 1000, 0}) {
    const auto count = static_cast<std::size_t>(n);
    const std::vector<int> in = random_ints(n, 4, rng);
    std::vector<int> want(count);
    const std::int64_t want_count = scan::find_repeats_serial(in.data(), n, want.data());
    common::DeviceBuffer<int> d_in(count, "in"), d_out(count, "out");
    d_in.copy_from_host(in.data(), count);
    EXPECT_EQ(
        scan::find_repeats(d_in.data(), n, d_out.data(), scan::Algorithm::kStudent, workspace),
        want_count)
        << "n = " << n;
  }
}

class StudentRender : public GpuTestWithParam<const char*> {};

// Frame 0 and, for animated scenes, frame 2 at two image sizes, one of them
// not a multiple of a 16-pixel tile.
TEST_P(StudentRender, MatchesTheSerialRenderer) {
  const scenes::Scene scene = scenes::load_scene(GetParam(), 1);
  const float tolerance = render::check_tolerance(scene, render::RendererKind::Student);
  for (int size : {256, 300}) {
    render::RefRenderer reference;
    const auto student = render::make_renderer(render::RendererKind::Student);
    reference.setup(scene, size, size);
    student->setup(scene, size, size);
    for (int frame = 0; frame < 3; ++frame) {
      if (frame > 0) {
        reference.advance();
        student->advance();
      }
      if (frame == 1) continue;
      reference.clear();
      reference.render();
      student->clear();
      student->render();
      const render::ImageComparison c =
          render::compare_images(student->image(), reference.image(), tolerance);
      ASSERT_TRUE(c.passed()) << GetParam() << " " << size << "x" << size << " frame " << frame
                              << ": " << c.mismatches << " pixels differ, the first at ("
                              << c.first_x << ", " << c.first_y
                              << "); your renderer is render/student/student_renderer.cu";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, StudentRender,
                         ::testing::Values("rgb", "rand10k", "pattern", "snowsingle", "biglittle",
                                           "bouncingballs", "fireworks"),
                         [](const auto& test) { return std::string(test.param); });

} // namespace
