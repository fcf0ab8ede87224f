#include "judge/render_placement.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace judge {

namespace {

constexpr std::uint32_t kPlacementMagic = 0x706c6163; // "plac"
constexpr std::uint32_t kArrays = 10;
constexpr std::uint32_t kImageEntry = kArrays; // an entry's `what` for the image

struct Entry {
  std::uint32_t what; // a scene array's index, or kImageEntry
  std::uint32_t pad;
  std::uint64_t offset;
};

struct Header {
  std::uint32_t magic;
  std::uint32_t entries;
};

constexpr std::size_t kMaxEntries = (kPlacementBytes - sizeof(Header)) / sizeof(Entry);
// The entry count of a report whose copies did not fit.
constexpr std::uint32_t kTooMany = 0xffffffffu;

} // namespace

void write_placement(void* region, std::size_t bytes, const Placement& placement) {
  std::vector<Entry> entries;
  for (std::size_t k = 0; k < placement.arrays.size() && k < kArrays; ++k)
    for (const std::uint64_t offset : placement.arrays[k])
      entries.push_back({static_cast<std::uint32_t>(k), 0, offset});
  if (placement.has_image) entries.push_back({kImageEntry, 0, placement.image});
  if (bytes < kPlacementBytes) throw std::invalid_argument("no room for a placement report");
  const bool fits = entries.size() <= kMaxEntries;
  const Header header{kPlacementMagic,
                      fits ? static_cast<std::uint32_t>(entries.size()) : kTooMany};
  if (!fits) entries.clear();
  auto* out = static_cast<unsigned char*>(region);
  std::memcpy(out, &header, sizeof header);
  std::memcpy(out + sizeof header, entries.data(), entries.size() * sizeof(Entry));
}

std::string read_placement(const void* region, std::size_t bytes, std::size_t circles,
                           std::size_t image_bytes, std::size_t arena_bytes, Placement* placement) {
  if (bytes < kPlacementBytes) return "no room for a placement";
  Header header{};
  std::memcpy(&header, region, sizeof header);
  if (header.magic == kPlacementMagic && header.entries == kTooMany)
    return "setup() and image() made more copies than a placement report holds";
  if (header.magic != kPlacementMagic || header.entries > kMaxEntries)
    return "the worker's placement report is malformed";
  std::vector<Entry> entries(header.entries);
  std::memcpy(entries.data(), static_cast<const unsigned char*>(region) + sizeof header,
              entries.size() * sizeof(Entry));
  Placement p;
  p.arrays.resize(kArrays);
  int images = 0;
  // [offset, end) of every range, to find overlaps.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const Entry& e : entries) {
    if (e.what > kImageEntry) return "the worker's placement report is malformed";
    const std::uint64_t size = e.what == kImageEntry ? image_bytes : circles * sizeof(float);
    if (e.offset > arena_bytes || size > arena_bytes - e.offset)
      return "the worker's placement report names memory outside the judge's arena";
    ranges.emplace_back(e.offset, e.offset + size);
    if (e.what == kImageEntry) {
      p.image = e.offset;
      p.has_image = true;
      ++images;
    } else {
      p.arrays[e.what].push_back(e.offset);
    }
  }
  if (images == 0) return "image() copied the image from nowhere the judge can read it";
  if (images > 1) return "the worker's placement report names two images";
  for (std::uint32_t k = 0; k < kArrays; ++k)
    if (p.arrays[k].empty())
      return "setup() copied scene array " + std::to_string(k) + " nowhere the judge can write it";
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second)
      return "the worker's placement report names overlapping memory";
  *placement = std::move(p);
  return {};
}

} // namespace judge
