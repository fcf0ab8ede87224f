// The student slots as the suite ships them: selected by name, and unfilled
// they fail with a message naming the file to edit (on the CPU), and the
// renderer's runs but draws wrong images (on the GPU). Not part of a
// handout: there the student fills the slots, and test_student_gpu.cpp
// checks them.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "gpu_test.h"
#include "render/check.h"
#include "render/image.h"
#include "render/ref_renderer.h"
#include "render/renderer.h"
#include "render/renderer_factory.h"
#include "saxpy/saxpy.h"
#include "scan/algorithm.h"
#include "scenes/scene.h"
#include "slot.h" // scan/student/slot.h: the scan slot's functions

namespace {

TEST(StudentSlots, AreSelectedByTheNameStudent) {
  EXPECT_EQ(saxpy::parse_variant("student"), saxpy::Variant::Student);
  EXPECT_STREQ(saxpy::variant_name(saxpy::Variant::Student), "student");
  EXPECT_EQ(scan::find_algorithm("student"), scan::Algorithm::kStudent);
  EXPECT_STREQ(scan::algorithm_name(scan::Algorithm::kStudent), "student");
  EXPECT_EQ(render::parse_renderer_kind("student"), render::RendererKind::Student);
  EXPECT_STREQ(render::renderer_kind_name(render::RendererKind::Student), "student");
}

TEST(StudentSlots, AreNotTheDefaultsOutsideAHandout) {
  EXPECT_EQ(saxpy::default_variants(),
            (std::vector<saxpy::Variant>{saxpy::Variant::Course, saxpy::Variant::Tuned}));
  EXPECT_NE(scan::kDefaultAlgorithm, scan::Algorithm::kStudent);
  // -a all times the suite's algorithms; the slot is run by name only.
  for (scan::Algorithm a : scan::all_algorithms()) EXPECT_NE(a, scan::Algorithm::kStudent);
}

TEST(StudentSlots, RenderSlotIsCheckedWithTheGpuTolerance) {
  scenes::Scene snow;
  snow.snow = true;
  EXPECT_EQ(render::check_tolerance(snow, render::RendererKind::Student),
            render::check_tolerance(snow, render::RendererKind::Cuda));
}

// The message of the exception `call` throws, or "" when it throws none.
template <class Call> std::string message_of(Call call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Unfilled slots throw before touching the GPU, so this runs anywhere.
TEST(StudentSlots, UnfilledSaxpyNamesTheFileToEdit) {
  const std::string m =
      message_of([] { saxpy::launch_student_kernel(10, 2.f, nullptr, nullptr, nullptr, nullptr); });
  EXPECT_NE(m.find("not implemented yet"), std::string::npos) << m;
  EXPECT_NE(m.find("saxpy/student/student_saxpy.cu"), std::string::npos) << m;
}

TEST(StudentSlots, UnfilledScanNamesTheFileToEdit) {
  for (const std::string& m :
       {message_of([] { scan::student::exclusive_scan(nullptr, 10, nullptr); }),
        message_of([] { scan::student::find_repeats(nullptr, 10, nullptr); })}) {
    EXPECT_NE(m.find("not implemented yet"), std::string::npos) << m;
    EXPECT_NE(m.find("scan/student/student_scan.cu"), std::string::npos) << m;
  }
}

class UnfilledRenderSlot : public GpuTest {};

// The course's one-thread-per-circle kernel: it runs, and on a scene of many
// overlapping circles its pixels come out of order (or lost).
TEST_F(UnfilledRenderSlot, RunsButDrawsWrongImages) {
  const scenes::Scene scene = scenes::load_scene("rand10k", 1);
  render::RefRenderer reference;
  const auto student = render::make_renderer(render::RendererKind::Student);
  for (render::Renderer* r : {static_cast<render::Renderer*>(&reference), student.get()}) {
    r->setup(scene, 256, 256);
    r->clear();
    r->render();
  }
  EXPECT_GT(render::compare_images(student->image(), reference.image()).mismatches, 0u);
}

} // namespace
