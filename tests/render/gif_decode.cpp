#include "gif_decode.h"

#include <stdexcept>

namespace render_test {

namespace {

class Reader {
public:
  explicit Reader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  std::uint8_t byte() {
    if (at_ >= bytes_.size()) throw std::runtime_error("GIF ends early");
    return bytes_[at_++];
  }
  int u16() {
    const int lo = byte();
    return lo | byte() << 8;
  }
  std::vector<std::uint8_t> take(std::size_t n) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(byte());
    return out;
  }
  // Data sub-blocks up to the zero-length terminator, joined.
  std::vector<std::uint8_t> blocks() {
    std::vector<std::uint8_t> out;
    for (std::size_t n = byte(); n != 0; n = byte()) {
      const auto part = take(n);
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }
  bool done() const { return at_ == bytes_.size(); }

private:
  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
};

} // namespace

std::vector<std::uint8_t> lzw_decode(const std::vector<std::uint8_t>& data, int min_code_size) {
  const int clear = 1 << min_code_size, end = clear + 1;
  std::vector<std::vector<std::uint8_t>> table;
  const auto reset = [&] {
    table.clear();
    for (int i = 0; i < clear; ++i) table.push_back({static_cast<std::uint8_t>(i)});
    table.push_back({}); // clear
    table.push_back({}); // end
  };
  reset();
  int width = min_code_size + 1;
  std::size_t bit = 0;
  const auto read = [&] {
    int code = 0;
    for (int i = 0; i < width; ++i, ++bit) {
      if (bit / 8 >= data.size()) throw std::runtime_error("LZW data ends without an end code");
      code |= ((data[bit / 8] >> (bit % 8)) & 1) << i;
    }
    return code;
  };
  std::vector<std::uint8_t> out;
  int previous = -1;
  for (;;) {
    const int code = read();
    if (code == clear) {
      reset();
      width = min_code_size + 1;
      previous = -1;
      continue;
    }
    if (code == end) break;
    std::vector<std::uint8_t> entry;
    if (code < static_cast<int>(table.size())) {
      entry = table[static_cast<std::size_t>(code)];
    } else if (code == static_cast<int>(table.size()) && previous >= 0) {
      entry = table[static_cast<std::size_t>(previous)];
      entry.push_back(entry.front());
    } else {
      throw std::runtime_error("LZW code " + std::to_string(code) + " out of order");
    }
    out.insert(out.end(), entry.begin(), entry.end());
    if (previous >= 0 && table.size() < 4096) {
      std::vector<std::uint8_t> added = table[static_cast<std::size_t>(previous)];
      added.push_back(entry.front());
      table.push_back(added);
      if (table.size() == (1u << width) && width < 12) ++width;
    }
    previous = code;
  }
  return out;
}

GifFile decode_gif(const std::vector<std::uint8_t>& bytes) {
  Reader in(bytes);
  const auto magic = in.take(6);
  if (std::string(magic.begin(), magic.end()) != "GIF89a") throw std::runtime_error("not a GIF89a");
  GifFile gif;
  gif.width = in.u16();
  gif.height = in.u16();
  const std::uint8_t flags = in.byte();
  in.take(2);
  std::vector<std::uint8_t> global;
  if (flags & 0x80) global = in.take(3u << ((flags & 7) + 1));
  int delay = 0;
  for (;;) {
    const std::uint8_t kind = in.byte();
    if (kind == 0x3b) break; // trailer
    if (kind == 0x21) {
      const std::uint8_t label = in.byte();
      const auto data = in.blocks();
      if (label == 0xf9 && data.size() == 4) delay = data[1] | data[2] << 8;
      if (label == 0xff && data.size() >= 11 &&
          std::string(data.begin(), data.begin() + 11) == "NETSCAPE2.0")
        gif.loops = true;
      continue;
    }
    if (kind != 0x2c) throw std::runtime_error("unexpected block " + std::to_string(kind));
    GifImage image;
    if (in.u16() != 0 || in.u16() != 0) throw std::runtime_error("frame not at 0,0");
    image.width = in.u16();
    image.height = in.u16();
    const std::uint8_t image_flags = in.byte();
    if (image_flags & 0x40) throw std::runtime_error("interlaced");
    std::vector<std::uint8_t> palette =
        (image_flags & 0x80) ? in.take(3u << ((image_flags & 7) + 1)) : global;
    const int min_code_size = in.byte();
    const auto indices = lzw_decode(in.blocks(), min_code_size);
    if (indices.size() != static_cast<std::size_t>(image.width) * image.height)
      throw std::runtime_error("frame has " + std::to_string(indices.size()) + " pixels");
    for (std::uint8_t index : indices) {
      if (3u * index + 2 >= palette.size()) throw std::runtime_error("index past the palette");
      image.rgb.insert(image.rgb.end(), palette.begin() + 3 * index,
                       palette.begin() + 3 * index + 3);
    }
    image.delay_cs = delay;
    gif.frames.push_back(std::move(image));
  }
  if (!in.done()) throw std::runtime_error("bytes after the trailer");
  return gif;
}

} // namespace render_test
