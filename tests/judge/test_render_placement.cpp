// The judge's reading of a worker's placement report (where its renderer
// keeps the scene and the image in the judge's device arena): the worker is
// hostile, so every report that would have the judge write outside the
// arena, over the image, or nowhere is refused with its reason, and an
// honest one reads back as written.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "judge/render_placement.h"

namespace {

constexpr std::size_t kCircles = 100, kImage = 64 * 64 * 16, kArena = 1 << 20;
constexpr std::uint64_t kArray = kCircles * sizeof(float);

// Each array after the other from offset 0, the image after them.
judge::Placement honest() {
  judge::Placement p;
  p.arrays.resize(10);
  for (std::uint64_t k = 0; k < 10; ++k) p.arrays[k] = {k * 512};
  p.has_image = true;
  p.image = 10 * 512;
  return p;
}

std::string read(const judge::Placement& written, judge::Placement* out = nullptr) {
  std::vector<unsigned char> region(judge::kPlacementBytes);
  judge::write_placement(region.data(), region.size(), written);
  judge::Placement p;
  const std::string why =
      judge::read_placement(region.data(), region.size(), kCircles, kImage, kArena, &p);
  if (out) *out = p;
  return why;
}

TEST(RenderPlacement, AnHonestReportReadsBackAsWritten) {
  judge::Placement p;
  judge::Placement written = honest();
  written.arrays[3].push_back(200000); // copied twice: both places are written
  EXPECT_EQ(read(written, &p), "");
  ASSERT_EQ(p.arrays.size(), 10u);
  EXPECT_EQ(p.arrays[0], std::vector<std::uint64_t>{0});
  EXPECT_EQ(p.arrays[3], (std::vector<std::uint64_t>{3 * 512, 200000}));
  EXPECT_TRUE(p.has_image);
  EXPECT_EQ(p.image, 10u * 512);
}

TEST(RenderPlacement, AnArrayCopiedNowhereIsNamed) {
  judge::Placement p = honest();
  p.arrays[6].clear();
  EXPECT_EQ(read(p), "setup() copied scene array 6 nowhere the judge can write it");
}

TEST(RenderPlacement, NoImageIsNamed) {
  judge::Placement p = honest();
  p.has_image = false;
  EXPECT_EQ(read(p), "image() copied the image from nowhere the judge can read it");
}

TEST(RenderPlacement, MemoryOutsideTheArenaIsRefused) {
  judge::Placement p = honest();
  p.arrays[2] = {kArena - kArray + 4}; // its last float past the end
  EXPECT_EQ(read(p), "the worker's placement report names memory outside the judge's arena");
  p = honest();
  p.image = ~std::uint64_t{0} - 8; // an end that wraps around
  EXPECT_EQ(read(p), "the worker's placement report names memory outside the judge's arena");
}

TEST(RenderPlacement, OverlapsAreRefused) {
  judge::Placement p = honest();
  p.arrays[9] = {p.image + 16}; // the scene written over the image
  EXPECT_EQ(read(p), "the worker's placement report names overlapping memory");
  p = honest();
  p.arrays[1] = {p.arrays[0][0] + kArray - 4}; // one float shared
  EXPECT_EQ(read(p), "the worker's placement report names overlapping memory");
}

TEST(RenderPlacement, MalformedReportsAreRefused) {
  std::vector<unsigned char> region(judge::kPlacementBytes, 0xff);
  judge::Placement p;
  EXPECT_EQ(judge::read_placement(region.data(), region.size(), kCircles, kImage, kArena, &p),
            "the worker's placement report is malformed");
  // A valid header claiming more entries than the report holds.
  judge::write_placement(region.data(), region.size(), honest());
  const std::uint32_t too_many = 1u << 20;
  std::memcpy(region.data() + 4, &too_many, sizeof too_many);
  EXPECT_EQ(judge::read_placement(region.data(), region.size(), kCircles, kImage, kArena, &p),
            "the worker's placement report is malformed");
  // An entry naming an eleventh array.
  judge::write_placement(region.data(), region.size(), honest());
  const std::uint32_t what = 11;
  std::memcpy(region.data() + 8, &what, sizeof what);
  EXPECT_EQ(judge::read_placement(region.data(), region.size(), kCircles, kImage, kArena, &p),
            "the worker's placement report is malformed");
  EXPECT_EQ(judge::read_placement(region.data(), 16, kCircles, kImage, kArena, &p),
            "no room for a placement");
}

TEST(RenderPlacement, TwoImagesAreRefused) {
  std::vector<unsigned char> region(judge::kPlacementBytes);
  judge::Placement p = honest();
  p.arrays[0].push_back(300000);
  judge::write_placement(region.data(), region.size(), p);
  // The extra copy of array 0 made into a second image entry.
  const std::uint32_t image_entry = 10;
  std::memcpy(region.data() + 8 + 16, &image_entry, sizeof image_entry);
  EXPECT_EQ(judge::read_placement(region.data(), region.size(), kCircles, kImage, kArena, &p),
            "the worker's placement report names two images");
}

TEST(RenderPlacement, TooManyCopiesReadAsSuch) {
  judge::Placement p = honest();
  for (std::uint64_t i = 0; i < 1000; ++i) p.arrays[0].push_back(100000 + i * 512);
  EXPECT_EQ(read(p), "setup() and image() made more copies than a placement report holds");
  std::vector<unsigned char> small(16);
  EXPECT_THROW(judge::write_placement(small.data(), small.size(), honest()), std::invalid_argument);
}

} // namespace
