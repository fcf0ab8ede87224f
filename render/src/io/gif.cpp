#include "render/gif.h"

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "render/image_io.h"
#include "scenes/atomic_file.h"
#include "write_step.h"

namespace render {

namespace {

constexpr int kPaletteSize = 256;

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

using detail::writing;

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

struct GifWriter::File {
  explicit File(const std::string& destination) : path(destination), file(destination) {}
  ~File() { close(); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // giflib's output function: the bytes go to the atomic file. No exception
  // may cross giflib's C frames, so a failure is kept for check() and told
  // to giflib as nothing written, which fails the call in progress.
  static int put(GifFileType* gif, const GifByteType* bytes, int size) {
    File& self = *static_cast<File*>(gif->UserData);
    try {
      self.file.write(bytes, static_cast<std::size_t>(size));
      return size;
    } catch (const std::exception& e) {
      if (self.failure.empty()) self.failure = e.what();
      return 0;
    }
  }

  // A giflib call's status (GIF_OK or GIF_ERROR); on failure throws "cannot
  // write PATH: REASON", the file's own reason when a write failed (a full
  // disk), else giflib's. A failure sticks: every later step, finish()
  // included, throws it again, so a broken file is never committed.
  void check(int status) {
    if (failure.empty() && status != GIF_OK) failure = reason(gif->Error);
    if (!failure.empty()) throw std::runtime_error("cannot write " + path + ": " + failure);
  }

  static std::string reason(int error) {
    const char* text = GifErrorString(error);
    return text ? text : "giflib error " + std::to_string(error);
  }

  // Writes the trailer and frees giflib's state. giflib does not report a
  // failed write here; put() keeps it for check().
  void close() {
    if (gif) EGifCloseFile(gif, nullptr);
    gif = nullptr;
  }

  std::string path;
  scenes::AtomicFile file;
  GifFileType* gif = nullptr;
  std::string failure; // why writing failed, or empty
};

GifWriter::GifWriter(const std::string& path, int width, int height, int delay_cs)
    : path_(path), width_(width), height_(height), delay_cs_(delay_cs) {
  if (width < 1 || height < 1 || width > 65535 || height > 65535)
    throw std::runtime_error("cannot write " + path + ": a GIF is 1 to 65535 pixels a side");
  writing(path_, [&] { file_ = std::make_unique<File>(path); });
  int error = 0;
  file_->gif = EGifOpen(file_.get(), &File::put, &error);
  if (!file_->gif) throw std::runtime_error("cannot write " + path + ": " + File::reason(error));
  GifFileType* gif = file_->gif;
  EGifSetGifVersion(gif, true); // GIF89a, for the extensions
  // 8 bits per primary color, no global color table: each frame has its own.
  file_->check(EGifPutScreenDesc(gif, width, height, 8, 0, nullptr));
  // The NETSCAPE2.0 application extension: loop forever (a count of 0).
  const GifByteType loop[] = {1, 0, 0};
  file_->check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE));
  file_->check(EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0"));
  file_->check(EGifPutExtensionBlock(gif, sizeof loop, loop));
  file_->check(EGifPutExtensionTrailer(gif));
}

GifWriter::~GifWriter() = default;

void GifWriter::add_frame(const Image& image) {
  if (!file_) throw std::logic_error("GifWriter: frame added after finish()");
  if (image.width() != width_ || image.height() != height_)
    throw std::invalid_argument("GifWriter: frame size differs from the GIF's");
  // Not const: EGifPutLine masks each row in place.
  GifFrame frame = quantize_for_gif(image);
  GifFileType* gif = file_->gif;
  // Graphic control: the delay, no transparency, and the frame left in place
  // (each frame covers the whole picture, so nothing needs disposing).
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.DelayTime = delay_cs_;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const int size = static_cast<int>(EGifGCBToExtension(&control, extension));
  file_->check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, size, extension));
  // A local color table of 256 entries; giflib copies it.
  const std::unique_ptr<ColorMapObject, void (*)(ColorMapObject*)> map(
      GifMakeMapObject(kPaletteSize, nullptr), GifFreeMapObject);
  if (!map) throw std::bad_alloc();
  for (int i = 0; i < kPaletteSize; ++i) {
    const std::uint8_t* rgb = &frame.palette[3 * static_cast<std::size_t>(i)];
    map->Colors[i] = {rgb[0], rgb[1], rgb[2]};
  }
  file_->check(EGifPutImageDesc(gif, 0, 0, width_, height_, false, map.get()));
  for (int y = 0; y < height_; ++y)
    file_->check(EGifPutLine(gif, &frame.indices[static_cast<std::size_t>(y) * width_], width_));
  ++frames_;
}

void GifWriter::finish() {
  if (!file_) throw std::logic_error("GifWriter: finish() called twice");
  file_->check(GIF_OK); // an earlier failure first: it is why a frame may be missing
  if (frames_ == 0) throw std::logic_error("GifWriter: a GIF needs a frame");
  file_->close();
  file_->check(GIF_OK);
  writing(path_, [&] { file_->file.commit(); });
  file_.reset();
}

} // namespace render
