#include "render/gif.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "render/image_io.h"
#include "scenes/atomic_file.h"
#include "write_step.h"

namespace render {

namespace {

constexpr int kPaletteSize = 256;
constexpr int kMinCodeSize = 8;
constexpr int kClearCode = 1 << kMinCodeSize;
constexpr int kEndCode = kClearCode + 1;
constexpr int kMaxCode = 4095; // codes are at most 12 bits

// ------------------------------------------------------------ quantization

struct Rgb {
  std::uint8_t c[3];
};

Rgb pixel_bytes(const Image& image, int x, int y) {
  const float* p = image.pixel(x, y);
  return {{to_byte(p[0]), to_byte(p[1]), to_byte(p[2])}};
}

std::uint32_t pack(const Rgb& rgb) {
  return std::uint32_t{rgb.c[0]} << 16 | std::uint32_t{rgb.c[1]} << 8 | rgb.c[2];
}

// A histogram cell: 5 bits per channel.
struct Cell {
  std::uint32_t key = 0; // 15-bit cell number
  std::uint64_t count = 0;
  std::uint64_t sum[3] = {0, 0, 0};
  std::uint8_t at(int channel) const { return (key >> (10 - 5 * channel)) & 31; }
};

int cell_of(const Rgb& rgb) {
  return (rgb.c[0] >> 3) << 10 | (rgb.c[1] >> 3) << 5 | (rgb.c[2] >> 3);
}

// Median cut over the populated cells: split the most populous box that can
// still be split, along its widest channel, at the pixel-count median.
std::vector<std::array<std::uint8_t, 3>> median_cut(std::vector<Cell>& cells) {
  struct Box {
    std::size_t begin, end;
    std::uint64_t count;
  };
  const auto range = [&](const Box& box, int channel) {
    int lo = 31, hi = 0;
    for (std::size_t i = box.begin; i < box.end; ++i) {
      lo = std::min<int>(lo, cells[i].at(channel));
      hi = std::max<int>(hi, cells[i].at(channel));
    }
    return hi - lo;
  };
  std::uint64_t total = 0;
  for (const Cell& cell : cells) total += cell.count;
  std::vector<Box> boxes{{0, cells.size(), total}};
  while (boxes.size() < static_cast<std::size_t>(kPaletteSize)) {
    int pick = -1;
    for (std::size_t b = 0; b < boxes.size(); ++b)
      if (boxes[b].end - boxes[b].begin > 1 &&
          (pick < 0 || boxes[b].count > boxes[static_cast<std::size_t>(pick)].count))
        pick = static_cast<int>(b);
    if (pick < 0) break; // every box is one cell
    Box& box = boxes[static_cast<std::size_t>(pick)];
    int channel = 0;
    for (int c = 1; c < 3; ++c)
      if (range(box, c) > range(box, channel)) channel = c;
    // The key breaks ties, so the order (and the file) is the same everywhere.
    std::sort(cells.begin() + static_cast<std::ptrdiff_t>(box.begin),
              cells.begin() + static_cast<std::ptrdiff_t>(box.end),
              [channel](const Cell& a, const Cell& b) {
                return a.at(channel) != b.at(channel) ? a.at(channel) < b.at(channel)
                                                      : a.key < b.key;
              });
    std::uint64_t below = 0;
    std::size_t split = box.begin + 1;
    for (std::size_t i = box.begin; i + 1 < box.end; ++i) {
      below += cells[i].count;
      split = i + 1;
      if (2 * below >= box.count) break;
    }
    std::uint64_t low = 0;
    for (std::size_t i = box.begin; i < split; ++i) low += cells[i].count;
    const Box high{split, box.end, box.count - low};
    box.end = split;
    box.count = low;
    boxes.push_back(high);
  }
  std::vector<std::array<std::uint8_t, 3>> palette;
  for (const Box& box : boxes) {
    std::uint64_t sum[3] = {0, 0, 0};
    for (std::size_t i = box.begin; i < box.end; ++i)
      for (int c = 0; c < 3; ++c) sum[c] += cells[i].sum[c];
    std::array<std::uint8_t, 3> color{};
    for (int c = 0; c < 3; ++c)
      color[static_cast<std::size_t>(c)] =
          static_cast<std::uint8_t>((sum[c] + box.count / 2) / box.count);
    palette.push_back(color);
  }
  return palette;
}

int nearest(const std::vector<std::array<std::uint8_t, 3>>& palette, const Rgb& rgb) {
  int best = 0;
  int best_distance = std::numeric_limits<int>::max();
  for (std::size_t i = 0; i < palette.size(); ++i) {
    int distance = 0;
    for (int c = 0; c < 3; ++c) {
      const int d = int{palette[i][static_cast<std::size_t>(c)]} - rgb.c[c];
      distance += d * d;
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = static_cast<int>(i);
    }
  }
  return best;
}

// ---------------------------------------------------------------------- LZW

// Packs codes of varying width, least significant bit first.
class BitWriter {
public:
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void put(int code, int width) {
    bits_ |= static_cast<std::uint32_t>(code) << used_;
    used_ += width;
    while (used_ >= 8) {
      out_.push_back(static_cast<std::uint8_t>(bits_ & 0xff));
      bits_ >>= 8;
      used_ -= 8;
    }
  }
  void flush() {
    if (used_ > 0) out_.push_back(static_cast<std::uint8_t>(bits_ & 0xff));
    bits_ = 0;
    used_ = 0;
  }

private:
  std::vector<std::uint8_t>& out_;
  std::uint32_t bits_ = 0;
  int used_ = 0;
};

using detail::writing;

void put_u16(std::vector<std::uint8_t>& out, int value) {
  out.push_back(static_cast<std::uint8_t>(value & 0xff));
  out.push_back(static_cast<std::uint8_t>((value >> 8) & 0xff));
}

} // namespace

GifFrame quantize_for_gif(const Image& image) {
  const int w = image.width(), h = image.height();
  GifFrame frame;
  frame.palette.assign(3 * kPaletteSize, 0);
  frame.indices.resize(image.pixel_count());
  // Few colors (flat scenes): an exact palette.
  std::unordered_map<std::uint32_t, std::uint8_t> exact;
  for (int y = 0; y < h && exact.size() <= static_cast<std::size_t>(kPaletteSize); ++y)
    for (int x = 0; x < w; ++x) {
      const Rgb rgb = pixel_bytes(image, x, y);
      const auto [it, added] =
          exact.emplace(pack(rgb), static_cast<std::uint8_t>(exact.size() & 0xff));
      if (added && exact.size() <= static_cast<std::size_t>(kPaletteSize))
        std::memcpy(&frame.palette[3 * std::size_t{it->second}], rgb.c, 3);
      if (exact.size() > static_cast<std::size_t>(kPaletteSize)) break;
    }
  const bool few = exact.size() <= static_cast<std::size_t>(kPaletteSize);
  std::vector<Cell> cells;
  std::vector<int> cell_index;
  if (!few) {
    std::vector<Cell> all(1 << 15);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const Rgb rgb = pixel_bytes(image, x, y);
        Cell& cell = all[static_cast<std::size_t>(cell_of(rgb))];
        ++cell.count;
        for (int c = 0; c < 3; ++c) cell.sum[c] += rgb.c[c];
      }
    for (std::size_t k = 0; k < all.size(); ++k)
      if (all[k].count) {
        all[k].key = static_cast<std::uint32_t>(k);
        cells.push_back(all[k]);
      }
    const auto palette = median_cut(cells);
    for (std::size_t i = 0; i < palette.size(); ++i)
      std::memcpy(&frame.palette[3 * i], palette[i].data(), 3);
    // Each populated cell maps to the entry nearest its mean color.
    cell_index.assign(1 << 15, 0);
    for (const Cell& cell : cells) {
      Rgb mean{};
      for (int c = 0; c < 3; ++c)
        mean.c[c] = static_cast<std::uint8_t>((cell.sum[c] + cell.count / 2) / cell.count);
      cell_index[cell.key] = nearest(palette, mean);
    }
  }
  std::size_t out = 0;
  for (int y = h - 1; y >= 0; --y) // GIF rows run top to bottom
    for (int x = 0; x < w; ++x) {
      const Rgb rgb = pixel_bytes(image, x, y);
      frame.indices[out++] =
          few ? exact.at(pack(rgb))
              : static_cast<std::uint8_t>(cell_index[static_cast<std::size_t>(cell_of(rgb))]);
    }
  return frame;
}

std::vector<std::uint8_t> gif_lzw_encode(const std::vector<std::uint8_t>& indices) {
  std::vector<std::uint8_t> out;
  BitWriter bits(out);
  // next_code[prefix * 256 + byte]: the code of prefix+byte, or -1.
  std::vector<std::int16_t> table(static_cast<std::size_t>(kMaxCode + 1) * 256, -1);
  int width = kMinCodeSize + 1;
  int last = kEndCode; // the highest code in use
  bits.put(kClearCode, width);
  // The decoder adds a code for each code it reads after the first one
  // following a clear; the writer mirrors that count so both widen at once.
  const auto count_code = [&] {
    if (last < kMaxCode && ++last >= (1 << width) && width < 12) ++width;
  };
  if (!indices.empty()) {
    int prefix = indices[0];
    for (std::size_t i = 1; i < indices.size(); ++i) {
      const int byte = indices[i];
      const std::size_t slot = static_cast<std::size_t>(prefix) * 256 + byte;
      if (table[slot] >= 0) {
        prefix = table[slot];
        continue;
      }
      bits.put(prefix, width);
      if (last < kMaxCode) {
        table[slot] = static_cast<std::int16_t>(last + 1);
        count_code();
      } else {
        // Table full: start afresh.
        bits.put(kClearCode, width);
        std::fill(table.begin(), table.end(), std::int16_t{-1});
        width = kMinCodeSize + 1;
        last = kEndCode;
      }
      prefix = byte;
    }
    bits.put(prefix, width);
    count_code();
  }
  bits.put(kEndCode, width);
  bits.flush();
  return out;
}

struct GifWriter::File {
  explicit File(const std::string& path) : file(path) {}
  scenes::AtomicFile file;
};

GifWriter::GifWriter(const std::string& path, int width, int height, int delay_cs)
    : path_(path), width_(width), height_(height), delay_cs_(delay_cs) {
  if (width < 1 || height < 1 || width > 65535 || height > 65535)
    throw std::runtime_error("cannot write " + path + ": a GIF is 1 to 65535 pixels a side");
  writing(path_, [&] { file_ = std::make_unique<File>(path); });
  std::vector<std::uint8_t> head = {'G', 'I', 'F', '8', '9', 'a'};
  put_u16(head, width);
  put_u16(head, height);
  head.insert(head.end(), {0x00, 0x00, 0x00}); // no global color table
  // The NETSCAPE2.0 extension: loop forever.
  const char app[] = "NETSCAPE2.0";
  head.insert(head.end(), {0x21, 0xff, 0x0b});
  head.insert(head.end(), app, app + 11);
  head.insert(head.end(), {0x03, 0x01, 0x00, 0x00, 0x00});
  writing(path_, [&] { file_->file.write(head.data(), head.size()); });
}

GifWriter::~GifWriter() = default;

void GifWriter::add_frame(const Image& image) {
  if (!file_) throw std::logic_error("GifWriter: frame added after finish()");
  if (image.width() != width_ || image.height() != height_)
    throw std::invalid_argument("GifWriter: frame size differs from the GIF's");
  const GifFrame frame = quantize_for_gif(image);
  std::vector<std::uint8_t> out;
  // Graphic control: no disposal of the previous frame needed (each frame
  // covers the whole picture), the delay, no transparency.
  out.insert(out.end(), {0x21, 0xf9, 0x04, 0x04});
  put_u16(out, delay_cs_);
  out.insert(out.end(), {0x00, 0x00});
  out.push_back(0x2c); // image descriptor
  put_u16(out, 0);
  put_u16(out, 0);
  put_u16(out, width_);
  put_u16(out, height_);
  out.push_back(0x87); // a local color table of 256 entries
  out.insert(out.end(), frame.palette.begin(), frame.palette.end());
  out.push_back(kMinCodeSize);
  const std::vector<std::uint8_t> data = gif_lzw_encode(frame.indices);
  for (std::size_t at = 0; at < data.size(); at += 255) {
    const std::size_t n = std::min<std::size_t>(255, data.size() - at);
    out.push_back(static_cast<std::uint8_t>(n));
    out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(at),
               data.begin() + static_cast<std::ptrdiff_t>(at + n));
  }
  out.push_back(0x00); // end of the image data
  writing(path_, [&] { file_->file.write(out.data(), out.size()); });
  ++frames_;
}

void GifWriter::finish() {
  if (!file_) throw std::logic_error("GifWriter: finish() called twice");
  if (frames_ == 0) throw std::logic_error("GifWriter: a GIF needs a frame");
  const std::uint8_t trailer = 0x3b;
  writing(path_, [&] {
    file_->file.write(&trailer, 1);
    file_->file.commit();
  });
  file_.reset();
}

} // namespace render
